import { Readable } from 'node:stream';

/** Minimal byte sequences with the right magic numbers (the server sniffs the first 16 bytes). */
const pad = (head: Buffer, size = 64) => Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x00)]);
const ascii = (s: string) => Buffer.from(s, 'latin1');

export const media = {
  png: (size?: number) =>
    pad(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), size),
  jpeg: (size?: number) => pad(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]), size),
  gif: (size?: number) => pad(ascii('GIF89a\x01\x00\x01\x00'), size),
  webp: (size?: number) => pad(Buffer.concat([ascii('RIFF'), Buffer.from([0x24, 0, 0, 0]), ascii('WEBPVP8 ')]), size),
  mp4: (size?: number) =>
    pad(
      Buffer.concat([Buffer.from([0, 0, 0, 0x18]), ascii('ftypisom'), Buffer.from([0, 0, 2, 0]), ascii('isom')]),
      size,
    ),
  mov: (size?: number) =>
    pad(Buffer.concat([Buffer.from([0, 0, 0, 0x14]), ascii('ftypqt  '), Buffer.from([0, 0, 2, 0])]), size),
  webm: (size?: number) => pad(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]), size),
  m4a: (size?: number) =>
    pad(Buffer.concat([Buffer.from([0, 0, 0, 0x18]), ascii('ftypM4A '), Buffer.from([0, 0, 2, 0])]), size),
  mp3: (size?: number) => pad(ascii('ID3\x04\x00\x00\x00\x00\x00\x00'), size),
  mp3Frame: (size?: number) => pad(Buffer.from([0xff, 0xfb, 0x90, 0x64]), size),
  aac: (size?: number) => pad(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]), size),
  wav: (size?: number) => pad(Buffer.concat([ascii('RIFF'), Buffer.from([0x24, 0, 0, 0]), ascii('WAVEfmt ')]), size),
  ogg: (size?: number) => pad(ascii('OggS\x00\x02'), size),
  text: (size?: number) => pad(ascii('just some text, not media at all'), size),
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
