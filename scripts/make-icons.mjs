#!/usr/bin/env node
// Renders the PNG icons from their SVG sources with ffmpeg's librsvg decoder (Debian's ffmpeg has it):
//   build/icon.svg -> build/icon.png (512x512; electron-builder derives the .icns and .ico from it)
//   build/tray.svg -> resources/icons/tray.png (32x32, Windows and Linux trays),
//                     resources/icons/trayTemplate.png and trayTemplate@2x.png (16 and 32, macOS menu bar)
// The PNGs are committed; run this after changing an SVG: node scripts/make-icons.mjs
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const renders = [
  ['build/icon.svg', 'build/icon.png', 512],
  ['build/tray.svg', 'resources/icons/tray.png', 32],
  ['build/tray.svg', 'resources/icons/trayTemplate.png', 16],
  ['build/tray.svg', 'resources/icons/trayTemplate@2x.png', 32],
];
for (const [svg, png, size] of renders) {
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-width',
    String(size),
    '-height',
    String(size),
    '-i',
    path.join(root, svg),
    '-frames:v',
    '1',
    '-pix_fmt',
    'rgba',
    '-update',
    '1',
    path.join(root, png),
  ]);
  process.stdout.write(`${png} (${size}x${size}) from ${svg}\n`);
}
