// What a person would type into each built-in template, and small pictures and sounds drawn from code (licence-clean),
// for the local renderer's frame sheets (scripts/local-renderer-sheets.mjs) and its layout tests.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Text values per template id and key (the rest keep their defaults). */
export const SAMPLE_TEXTS = {
  'text-to-video-cinematic': { scene: 'A lighthouse on a cliff at dusk, waves crashing below' },
  'text-to-video-pro-1080p': {
    product: 'A red bicycle leaning on a brick wall',
    tagline: 'Ride the city',
    palette: 'warm sunset',
  },
  'ingredients-product-spokesperson': { pitch: 'Meet the bottle that keeps your coffee hot all day' },
  'ingredients-two-characters': { scene: 'Two friends share an umbrella in the rain' },
  'video-to-video-restyle': { style: 'hand-drawn watercolor animation' },
};

const SVG = {
  photo: `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="768">
    <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2b4c7e"/>
    <stop offset="1" stop-color="#f4a259"/></linearGradient></defs>
    <rect width="1024" height="768" fill="url(#s)"/><circle cx="700" cy="420" r="90" fill="#ffd166"/>
    <path d="M0 520 Q200 380 420 500 T1024 460 V768 H0Z" fill="#3d5a40"/>
    <path d="M0 620 Q260 520 520 610 T1024 600 V768 H0Z" fill="#1f3324"/></svg>`,
  product: `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600">
    <rect width="600" height="600" fill="#f1ece4"/><ellipse cx="300" cy="540" rx="130" ry="22" fill="#d8cfc2"/>
    <rect x="215" y="150" width="170" height="390" rx="40" fill="#c0392b"/>
    <rect x="245" y="90" width="110" height="80" rx="18" fill="#2c3e50"/>
    <rect x="215" y="300" width="170" height="70" fill="#f5f5f5"/></svg>`,
};

function ffmpeg(...args) {
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args]);
}

/**
 * Writes the sample media into `dir` once: a landscape photo and a product photo (SVG through ffmpeg's librsvg), a
 * short clip, a voice and a music track. Returns each file with its content type.
 */
export function makeSampleMedia(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const out = (name) => path.join(dir, name);
  for (const [name, svg] of Object.entries(SVG)) {
    if (fs.existsSync(out(`${name}.png`))) continue;
    fs.writeFileSync(out(`${name}.svg`), svg);
    ffmpeg('-i', out(`${name}.svg`), out(`${name}.png`));
  }
  if (!fs.existsSync(out('clip.mp4'))) {
    ffmpeg(
      ...['-f', 'lavfi', '-i', 'testsrc2=s=640x360:r=24', '-t', '3'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', out('clip.mp4')],
    );
  }
  if (!fs.existsSync(out('voice.wav'))) {
    ffmpeg(
      '-f',
      'lavfi',
      '-i',
      'aevalsrc=0.5*sin(2*PI*180*t)*(0.5+0.5*sin(2*PI*3*t)):s=22050',
      '-t',
      '6',
      out('voice.wav'),
    );
  }
  if (!fs.existsSync(out('music.wav'))) {
    const beat = '0.6*sin(2*PI*110*t)*exp(-6*mod(t\\,0.5))+0.3*(random(0)-0.5)*exp(-14*mod(t+0.25\\,0.5))';
    ffmpeg('-f', 'lavfi', '-i', `aevalsrc=${beat}:s=22050`, '-t', '16', out('music.wav'));
  }
  return {
    photo: { path: out('photo.png'), contentType: 'image/png' },
    product: { path: out('product.png'), contentType: 'image/png' },
    clip: { path: out('clip.mp4'), contentType: 'video/mp4' },
    voice: { path: out('voice.wav'), contentType: 'audio/wav' },
    music: { path: out('music.wav'), contentType: 'audio/wav' },
  };
}

/** The sample file for a media variable of a built-in template (characters for people; null leaves it out). */
export function sampleMediaFor(v, files, charactersDir) {
  const character = (name, id) => ({
    path: path.join(charactersDir, `${name}.png`),
    contentType: 'image/png',
    characterId: id,
  });
  if (v.type === 'video') return files.clip;
  if (v.type === 'audio') return v.key === 'track' ? files.music : files.voice;
  if (v.key === 'presenter' || v.key === 'character_a' || v.key === 'speaker') return character('ava', 'chr_ava');
  if (v.key === 'character_b') return character('marcus', 'chr_marcus');
  if (v.key === 'product_image') return files.product;
  return files.photo;
}
