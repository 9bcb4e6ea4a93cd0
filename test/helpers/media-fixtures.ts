import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { tempDir } from './temp-dir.js';

/**
 * Real, decodable media — the server decodes every upload with ffprobe — of an exact size when asked:
 * the padding lives inside the format (a PNG chunk, JPEG/GIF comments, an MP4 `free` box, a Matroska
 * Void element, ID3 padding, more WAV samples), so a padded file still decodes. PNG and WAV are built
 * here; the rest is made once per process with ffmpeg. test/unit/video/uploads/media-probe.test.ts checks them all.
 */
const cache = new Map<string, Buffer<ArrayBuffer>>();

const ffmpegArgs: Record<string, { file: string; args: string[] }> = {
  jpeg: { file: 'a.jpg', args: ['-f', 'lavfi', '-i', 'color=c=red:s=8x8:r=1', '-frames:v', '1'] },
  gif: { file: 'a.gif', args: ['-f', 'lavfi', '-i', 'color=c=red:s=2x2:r=1', '-frames:v', '1'] },
  webp: { file: 'a.webp', args: ['-f', 'lavfi', '-i', 'color=c=red:s=2x2:r=1', '-frames:v', '1', '-c:v', 'libwebp'] },
  // One H.264 frame without the encoder's SEI text, so the file stays under 1 KB.
  mp4: {
    file: 'a.mp4',
    args: [
      ...['-f', 'lavfi', '-i', 'color=c=red:s=16x16:r=1:d=1'],
      ...[
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-bsf:v',
        'filter_units=remove_types=6',
        '-movflags',
        '+faststart',
      ],
    ],
  },
  mp4av: {
    file: 'av.mp4',
    args: [
      ...['-f', 'lavfi', '-i', 'color=c=red:s=16x16:r=1:d=1', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono:d=0.3'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-bsf:v', 'filter_units=remove_types=6'],
      ...['-c:a', 'aac', '-b:a', '8k', '-movflags', '+faststart'],
    ],
  },
  mov: {
    file: 'a.mov',
    args: ['-f', 'lavfi', '-i', 'color=c=red:s=16x16:r=1:d=1', '-c:v', 'mpeg4', '-f', 'mov'],
  },
  webm: {
    file: 'a.webm',
    args: [
      ...['-f', 'lavfi', '-i', 'color=c=red:s=16x16:r=1:d=1', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono:d=0.1'],
      ...['-c:v', 'libvpx', '-c:a', 'libopus', '-b:a', '6k'],
    ],
  },
  m4a: { file: 'a.m4a', args: ['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono:d=0.1', '-c:a', 'aac', '-b:a', '8k'] },
  mp3Frame: {
    file: 'a.mp3',
    args: [
      ...['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono:d=0.1', '-c:a', 'libmp3lame', '-b:a', '8k'],
      ...['-id3v2_version', '0', '-write_xing', '0'],
    ],
  },
  aac: { file: 'a.aac', args: ['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono:d=0.1', '-c:a', 'aac', '-f', 'adts'] },
  ogg: {
    file: 'a.ogg',
    args: ['-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono:d=0.02', '-c:a', 'libopus', '-b:a', '6k'],
  },
};

function made(name: keyof typeof ffmpegArgs): Buffer<ArrayBuffer> {
  const hit = cache.get(name);
  if (hit) return hit;
  const { file, args } = ffmpegArgs[name];
  const dir = tempDir('media-fixture-');
  const out = path.join(dir, file);
  const exact = ['-fflags', '+bitexact', '-flags', '+bitexact', '-map_metadata', '-1'];
  const res = spawnSync('ffmpeg', ['-v', 'error', '-y', ...args, ...exact, out], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`ffmpeg could not make the ${name} fixture: ${res.stderr || res.error}`);
  const bytes = fs.readFileSync(out);
  fs.rmSync(dir, { recursive: true, force: true });
  cache.set(name, bytes);
  return bytes;
}

const tooSmall = (name: string, size: number, base: number, note = '') =>
  new Error(`media.${name}(${size}): the smallest real file is ${base} bytes${note}`);

/** A PNG chunk: length, type, data, CRC over type and data. */
function pngChunk(type: string, data: Buffer): Buffer<ArrayBuffer> {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A `width` x 1 grey PNG (69 + width bytes: stored deflate), optionally with a private ancillary chunk of padding. */
function pngFile(width: number, padding?: number): Buffer<ArrayBuffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth; colour type 0 (grey), default compression, filter, no interlace
  const raw = Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    // "paDd": ancillary, private, safe to copy — decoders skip it.
    ...(padding === undefined ? [] : [pngChunk('paDd', Buffer.alloc(padding))]),
    pngChunk('IDAT', zlib.deflateSync(raw, { level: 0 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function png(size?: number): Buffer<ArrayBuffer> {
  const base = pngFile(1).length;
  if (size === undefined || size === base) return pngFile(1);
  if (size < base) throw tooSmall('png', size, base);
  if (size < base + 12) return pngFile(1 + size - base); // a wider image
  return pngFile(1, size - base - 12);
}

/** 8 kHz mono unsigned 8-bit WAV: 44-byte header + one byte per sample (silence). */
function wav(size = 124): Buffer<ArrayBuffer> {
  if (size < 46) throw tooSmall('wav', size, 46);
  const samples = size - 44;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(size - 8, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(8000, 28); // bytes per second
  h.writeUInt16LE(1, 32); // block align
  h.writeUInt16LE(8, 34); // bits per sample
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(samples, 40);
  return Buffer.concat([h, Buffer.alloc(samples, 0x80)]);
}

/** JPEG: COM segments (FF FE, 16-bit length) right after SOI; each is at least 4 bytes. */
function jpeg(size?: number): Buffer<ArrayBuffer> {
  const base = made('jpeg');
  if (size === undefined || size === base.length) return base;
  let rest = size - base.length;
  if (rest < 4) throw tooSmall('jpeg', size, base.length, ' (padding comes in segments of at least 4)');
  const segments: Buffer[] = [];
  while (rest > 0) {
    let total = Math.min(rest, 65537);
    if (rest - total > 0 && rest - total < 4) total = rest - 4;
    const seg = Buffer.alloc(total);
    seg.writeUInt16BE(0xfffe, 0);
    seg.writeUInt16BE(total - 2, 2);
    segments.push(seg);
    rest -= total;
  }
  return Buffer.concat([base.subarray(0, 2), ...segments, base.subarray(2)]);
}

/** GIF: a comment extension (21 FE, sub-blocks of up to 255 bytes, 00) before the trailer. */
function gif(size?: number): Buffer<ArrayBuffer> {
  const base = made('gif');
  if (size === undefined || size === base.length) return base;
  let rest = size - base.length - 3;
  if (rest < 0 || rest === 1) throw tooSmall('gif', size, base.length, ' (padding is 3 or at least 5 bytes)');
  const blocks: Buffer[] = [];
  while (rest > 0) {
    let total = Math.min(rest, 256);
    if (rest - total === 1) total -= 1;
    const block = Buffer.alloc(total);
    block[0] = total - 1;
    blocks.push(block);
    rest -= total;
  }
  const trailer = base.length - 1;
  return Buffer.concat([
    base.subarray(0, trailer),
    Buffer.from([0x21, 0xfe]),
    ...blocks,
    Buffer.from([0]),
    base.subarray(trailer),
  ]);
}

/** The 8-byte header of an ISO-BMFF `free` box of `total` bytes (its content is ignored by readers). */
function freeBox(total: number): Buffer<ArrayBuffer> {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(total, 0);
  head.write('free', 4, 'latin1');
  return head;
}

/** MP4/MOV/M4A: a trailing `free` box (at least 8 bytes). */
function isoBmff(name: 'mp4' | 'mp4av' | 'mov' | 'm4a', size?: number): Buffer<ArrayBuffer> {
  const base = made(name);
  if (size === undefined || size === base.length) return base;
  const pad = size - base.length;
  if (pad < 8) throw tooSmall(name, size, base.length, ' (a free box is at least 8 bytes)');
  return Buffer.concat([base, freeBox(pad), Buffer.alloc(pad - 8)]);
}

/** WebM: a Void element (EC, 8-byte size) appended inside the Segment, whose size grows to hold it. */
function webm(size?: number): Buffer<ArrayBuffer> {
  const base = made('webm');
  if (size === undefined || size === base.length) return base;
  const pad = size - base.length;
  if (pad < 9) throw tooSmall('webm', size, base.length, ' (a Void element is at least 9 bytes)');
  const at = base.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67])) + 4;
  if (at < 4 || base[at] !== 0x01) throw new Error('unexpected WebM layout: the Segment size is not 8 bytes');
  const out = Buffer.concat([base, Buffer.from([0xec, 0x01]), Buffer.alloc(pad - 2)]);
  const sizeField = (n: bigint) => n | (1n << 56n); // an 8-byte EBML number: marker bit + 56 bits
  out.writeBigUInt64BE(sizeField(base.readBigUInt64BE(at) - (1n << 56n) + BigInt(pad)), at);
  out.writeBigUInt64BE(sizeField(BigInt(pad - 9)), base.length + 1);
  return out;
}

/** MP3 with an ID3v2 tag in front whose padding (zeros, allowed by ID3v2) makes up the size. */
function mp3(size?: number): Buffer<ArrayBuffer> {
  const frames = made('mp3Frame');
  const padding = size === undefined ? 0 : size - frames.length - 10;
  if (padding < 0) throw tooSmall('mp3', size ?? 0, frames.length + 10);
  const tag = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
  for (let i = 0; i < 4; i++) tag[9 - i] = (padding >> (7 * i)) & 0x7f; // syncsafe size
  return Buffer.concat([tag, Buffer.alloc(padding), frames]);
}

/** Formats without in-format padding: only their natural size. */
function fixed(name: 'webp' | 'mp3Frame' | 'aac' | 'ogg', size?: number): Buffer<ArrayBuffer> {
  const base = made(name);
  if (size !== undefined && size !== base.length)
    throw new Error(`media.${name}(${size}): this fixture cannot be padded; it is ${base.length} bytes`);
  return base;
}

export const media = {
  png,
  jpeg,
  gif,
  webp: (size?: number) => fixed('webp', size),
  /** H.264 video only. */
  mp4: (size?: number) => isoBmff('mp4', size),
  /** H.264 video and AAC audio: serves as a video or as audio. */
  mp4av: (size?: number) => isoBmff('mp4av', size),
  mov: (size?: number) => isoBmff('mov', size),
  webm,
  m4a: (size?: number) => isoBmff('m4a', size),
  mp3,
  /** MP3 frames without an ID3 tag (starts with the frame sync). */
  mp3Frame: (size?: number) => fixed('mp3Frame', size),
  aac: (size?: number) => fixed('aac', size),
  wav,
  ogg: (size?: number) => fixed('ogg', size),
  text: (size?: number) => pad(ascii('just some text, not media at all'), size),
};

/** A real MP4 of `total` bytes as a stream: the video, then a `free` box whose zeros stream in 1 MiB chunks. */
export function mp4Stream(total: number, chunk = 1024 * 1024): Readable {
  const base = made('mp4');
  return zeroStream(Buffer.concat([base, freeBox(total - base.length)]), total, chunk);
}

const pad = (head: Buffer, size = 64) => Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x00)]);
const ascii = (s: string) => Buffer.from(s, 'latin1');

/**
 * Only the first bytes (magic numbers) of each format, zero-padded: NOT decodable. For the sniffer
 * and for bodies refused before decoding (size limits) or that must fail to decode.
 */
export const magic = {
  png: (size?: number) =>
    pad(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), size),
  jpeg: (size?: number) => pad(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]), size),
  gif: (size?: number) => pad(ascii('GIF89a\x01\x00\x01\x00'), size),
  mp4: (size?: number) =>
    pad(
      Buffer.concat([Buffer.from([0, 0, 0, 0x18]), ascii('ftypisom'), Buffer.from([0, 0, 2, 0]), ascii('isom')]),
      size,
    ),
};

/** A stream of `total` bytes: `head` followed by zeros, produced in 1 MiB chunks (never held in memory at once). */
export function zeroStream(head: Buffer, total: number, chunk = 1024 * 1024): Readable {
  const zeros = Buffer.alloc(chunk);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      if (sent === 0) {
        this.push(head);
        sent += head.length;
        return;
      }
      const n = Math.min(chunk, total - sent);
      sent += n;
      this.push(n === chunk ? zeros : zeros.subarray(0, n));
    },
  });
}
