#!/usr/bin/env node
// Draws the built-in characters' reference images (resources/characters/*.png, 512x512) from code: simple
// illustrated portraits (head, hair, face, neck and shoulders) that read as the people the JSON describes,
// licence-clean because nothing is copied from anywhere. Rendered with ffmpeg's librsvg decoder, as
// make-icons.mjs does. The PNGs are committed; run this after changing a drawing:
//   node scripts/make-character-portraits.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 512;

/** A face drawn on a head centred at (256, 230): eyes, brows, nose and mouth. */
function face({ eyes = '#2b2118', brows = '#5a3420', lips = '#b4584e', skinShade }) {
  return `
    <ellipse cx="212" cy="232" rx="15" ry="10" fill="#fff"/>
    <ellipse cx="300" cy="232" rx="15" ry="10" fill="#fff"/>
    <circle cx="214" cy="233" r="8" fill="${eyes}"/>
    <circle cx="302" cy="233" r="8" fill="${eyes}"/>
    <circle cx="217" cy="230" r="2.5" fill="#fff"/>
    <circle cx="305" cy="230" r="2.5" fill="#fff"/>
    <path d="M192 208 Q212 196 232 206" stroke="${brows}" stroke-width="7" fill="none" stroke-linecap="round"/>
    <path d="M280 206 Q300 196 320 208" stroke="${brows}" stroke-width="7" fill="none" stroke-linecap="round"/>
    <path d="M256 240 Q248 272 258 280 Q264 283 270 279" stroke="${skinShade}" stroke-width="5" fill="none" stroke-linecap="round"/>
    <path d="M224 304 Q256 328 288 304" stroke="${lips}" stroke-width="8" fill="none" stroke-linecap="round"/>`;
}

/** Neck, shoulders in `clothes` and the head in `skin`; `back` and `front` are hair drawn behind and over it. */
function person({ bg, skin, skinShade, clothes, collar, back = '', front = '', extra = '', faceOpts = {} }) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 512 512">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${bg[0]}"/><stop offset="1" stop-color="${bg[1]}"/>
    </linearGradient>
  </defs>
  <rect width="512" height="512" fill="url(#bg)"/>
  ${back}
  <path d="M76 512 Q84 396 196 372 L316 372 Q428 396 436 512 Z" fill="${clothes}"/>
  <path d="M222 330 L290 330 L296 384 Q256 410 216 384 Z" fill="${skinShade}"/>
  <path d="M206 374 Q256 420 306 374 L318 382 Q256 446 194 382 Z" fill="${collar}"/>
  <ellipse cx="164" cy="246" rx="18" ry="28" fill="${skinShade}"/>
  <ellipse cx="348" cy="246" rx="18" ry="28" fill="${skinShade}"/>
  <ellipse cx="256" cy="236" rx="94" ry="112" fill="${skin}"/>
  ${face({ skinShade, ...faceOpts })}
  ${front}
  ${extra}
</svg>`;
}

const PORTRAITS = {
  // A presenter in her thirties with shoulder-length auburn hair.
  ava: person({
    bg: ['#e9f1fb', '#c9dcf2'],
    skin: '#f1c7a5',
    skinShade: '#d9a583',
    clothes: '#2f7d6d',
    collar: '#f4efe6',
    back: `<path d="M146 250 Q132 120 256 104 Q380 120 366 250 L378 372 Q352 392 330 372 L330 250 L182 250 L182 372 Q160 392 134 372 Z" fill="#8e3b1f"/>`,
    front: `<path d="M160 236 Q160 112 256 110 Q352 112 352 236 Q334 170 276 150 Q226 182 164 236 Z" fill="#a4472a"/>`,
    faceOpts: { eyes: '#3b5b2a', brows: '#7a3418', lips: '#c0605a' },
  }),
  // A calm, bearded narrator in a navy sweater.
  marcus: person({
    bg: ['#f6efe4', '#e4d3bb'],
    skin: '#a9714b',
    skinShade: '#8c5a39',
    clothes: '#1f2f55',
    collar: '#2b3f6e',
    front: `<path d="M164 214 Q158 118 256 116 Q354 118 348 214 Q330 160 256 156 Q182 160 164 214 Z" fill="#2a1d16"/>`,
    extra: `<path d="M166 250 Q170 344 256 364 Q342 344 346 250 Q338 300 300 312 Q256 300 212 312 Q174 300 166 250 Z" fill="#2a1d16"/>
    <path d="M226 300 Q256 292 286 300 Q256 316 226 300 Z" fill="#2a1d16"/>
    <path d="M232 318 Q256 330 280 318" stroke="#7a3f34" stroke-width="6" fill="none" stroke-linecap="round"/>`,
    faceOpts: { eyes: '#2b1a10', brows: '#22160f', lips: '#6e3a2e' },
  }),
};

/** A small green cartoon robot mascot with round eyes (the one built-in character that is not a person). */
const PIXEL_BOT = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 512 512">
  <rect width="512" height="512" fill="#eef7ee"/>
  <line x1="256" y1="60" x2="256" y2="118" stroke="#3a6b3a" stroke-width="10" stroke-linecap="round"/>
  <circle cx="256" cy="56" r="18" fill="#f2c230"/>
  <rect x="96" y="392" width="320" height="140" rx="48" fill="#3f9d4a"/>
  <rect x="226" y="350" width="60" height="52" fill="#2f7a38"/>
  <rect x="128" y="112" width="256" height="248" rx="64" fill="#56c25f"/>
  <rect x="156" y="156" width="200" height="140" rx="44" fill="#1f3b24"/>
  <circle cx="214" cy="222" r="30" fill="#dff8e2"/>
  <circle cx="298" cy="222" r="30" fill="#dff8e2"/>
  <circle cx="220" cy="226" r="13" fill="#1f3b24"/>
  <circle cx="304" cy="226" r="13" fill="#1f3b24"/>
  <path d="M222 268 Q256 288 290 268" stroke="#dff8e2" stroke-width="8" fill="none" stroke-linecap="round"/>
  <rect x="104" y="196" width="28" height="72" rx="12" fill="#3f9d4a"/>
  <rect x="380" y="196" width="28" height="72" rx="12" fill="#3f9d4a"/>
  <circle cx="256" cy="450" r="20" fill="#f2c230"/>
</svg>`;

const drawings = { ...PORTRAITS, 'pixel-bot': PIXEL_BOT };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portraits-'));
try {
  for (const [name, svg] of Object.entries(drawings)) {
    const source = path.join(tmp, `${name}.svg`);
    fs.writeFileSync(source, svg);
    const png = path.join(root, 'resources', 'characters', `${name}.png`);
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      source,
      '-frames:v',
      '1',
      '-pix_fmt',
      'rgb24',
      '-update',
      '1',
      png,
    ]);
    process.stdout.write(`resources/characters/${name}.png (${SIZE}x${SIZE})\n`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
