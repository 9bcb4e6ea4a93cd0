// The local renderer's reading of people's words: roles guessed from a variable, palettes and camera moves from
// words, and type set so the whole text fits.
import { describe, expect, it } from 'vitest';
import { cameraMoveFor } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/camera.js';
import { paletteFor, rgbToHsl } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/palette.js';
import { fitText, textWidth } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/type-fit.js';
import { RenderSpeed } from '../../../../src/main/core/video/pipeline/renderers/ffmpeg/render-speed.js';
import { roleOf } from '../../../../src/shared/variable-roles.js';

describe('roles', () => {
  it('keeps a role that fits the type, else guesses from key, label and type', () => {
    expect(roleOf({ key: 'tagline', type: 'text', role: 'headline' })).toBe('headline');
    expect(roleOf({ key: 'tagline', type: 'text' })).toBe('subtitle');
    expect(roleOf({ key: 'product', type: 'text' })).toBe('headline');
    expect(roleOf({ key: 'palette', type: 'text', label: 'Color palette' })).toBe('palette');
    expect(roleOf({ key: 'camera', type: 'text' })).toBe('motion');
    expect(roleOf({ key: 'theme', type: 'text' })).toBe('style');
    expect(roleOf({ key: 'bg', label: 'Background', type: 'image' })).toBe('background');
    expect(roleOf({ key: 'brand_logo', type: 'image' })).toBe('logo');
    expect(roleOf({ key: 'photo', type: 'image' })).toBe('subject');
    expect(roleOf({ key: 'voiceover', type: 'audio' })).toBe('voice_over');
    expect(roleOf({ key: 'track', type: 'audio' })).toBe('music');
    // A role of another type (the type changed in the editor) falls back to the guess.
    expect(roleOf({ key: 'photo', type: 'image', role: 'headline' })).toBe('subject');
  });
});

describe('palettes from words', () => {
  const hue = (rgb: readonly [number, number, number]) => rgbToHsl(rgb)[0];
  it('reads named looks, colour codes and colour names', () => {
    const sunset = paletteFor('warm sunset', '', 1);
    expect(sunset.hue).toBeLessThan(45);
    expect(sunset.light).toBe(false);
    const pastel = paletteFor('pastel', '', 1);
    expect(pastel.light).toBe(true);
    const written = paletteFor('#ff6600, navy', '', 1);
    expect(written.hue).toBeCloseTo(24, 0);
    expect(hue(written.background[1])).toBeGreaterThan(200); // navy
    expect(paletteFor('', 'neon geometric shapes', 1).source).toBe('neon geometric shapes');
  });
  it('takes a hue from the seed when no word names a colour', () => {
    expect(paletteFor('', 'medium close-up', 123).source).toBe('hash');
    expect(paletteFor('', '', 123).hue).toBeCloseTo(123, -1);
  });
});

describe('camera moves from words', () => {
  it('maps the usual words', () => {
    expect(cameraMoveFor('slow push in')).toEqual({ kind: 'push-in', speed: 0.6 });
    expect(cameraMoveFor('slow dolly-in').kind).toBe('push-in');
    expect(cameraMoveFor('pan left').kind).toBe('pan-left');
    expect(cameraMoveFor('fast orbit around the car')).toEqual({ kind: 'orbit', speed: 1.6 });
    expect(cameraMoveFor('gentle parallax').kind).toBe('drift');
    expect(cameraMoveFor('a bright modern studio').kind).toBe('push-in'); // "bright" is not "right"
  });
});

describe('type fitting', () => {
  it('shows the whole text, balanced, shrinking until it fits', () => {
    const text = 'A red bicycle leaning on a brick wall';
    const fit = fitText(text, { width: 560, height: 150, maxSize: 60, minSize: 12, weight: 'bold' });
    expect(fit.lines.join(' ')).toBe(text);
    expect(fit.height).toBeLessThanOrEqual(150);
    for (const line of fit.lines) expect(textWidth(line, fit.fontSize, 'bold')).toBeLessThanOrEqual(560);
    const widths = fit.lines.map((l) => textWidth(l, fit.fontSize, 'bold'));
    expect(Math.min(...widths) / Math.max(...widths)).toBeGreaterThan(0.6);
  });
  it('keeps every word past the smallest size (no ellipsis)', () => {
    const long = 'word '.repeat(200).trim();
    const fit = fitText(long, { width: 200, height: 40, maxSize: 30, minSize: 12, weight: 'regular' });
    expect(fit.fontSize).toBe(12);
    expect(fit.lines.join(' ')).toBe(long);
  });
});

describe('render speed', () => {
  it('estimates from frame size and duration, and follows measured renders', () => {
    const speed = new RenderSpeed();
    const small = speed.estimate({ width: 640, height: 360, durationSec: 5, draft: true });
    const big = speed.estimate({ width: 1920, height: 1080, durationSec: 10 });
    expect(big.typical).toBeGreaterThan(small.typical);
    expect(small.busy).toBeGreaterThan(small.typical);
    for (let i = 0; i < 20; i++) speed.record({ width: 1920, height: 1080, durationSec: 10 }, 60_000);
    expect(speed.estimate({ width: 1920, height: 1080, durationSec: 10 }).typical).toBeGreaterThan(50);
  });
});
