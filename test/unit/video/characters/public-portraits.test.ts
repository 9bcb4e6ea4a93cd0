// The built-in characters' reference images are drawings made by scripts/make-character-portraits.mjs:
// decodable PNGs, large enough to serve as references, and pictures (many colours), not flat discs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = path.resolve('resources/characters');
const SIZE = 512;

/** The image's pixels as RGB bytes, decoded by ffmpeg (as the service's own probe would read it). */
function pixels(file: string): Buffer {
  return execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    maxBuffer: SIZE * SIZE * 3 + 1024,
  });
}

describe('public characters’ portraits', () => {
  const characters = fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as { name: string; reference_images: string[] });

  it.each(characters.flatMap((c) => c.reference_images.map((image) => [c.name, image] as const)))(
    '%s: %s is a 512x512 drawing',
    (_name, image) => {
      const rgb = pixels(path.join(DIR, image));
      expect(rgb.length).toBe(SIZE * SIZE * 3);
      const colours = new Set<number>();
      for (let i = 0; i < rgb.length; i += 3) colours.add((rgb[i] << 16) | (rgb[i + 1] << 8) | rgb[i + 2]);
      // A flat disc on a background has a handful of colours (plus its edge); a drawn face has hundreds.
      expect(colours.size).toBeGreaterThan(200);
    },
  );
});
