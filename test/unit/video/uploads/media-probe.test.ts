import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MediaProbe } from '../../../../src/main/core/video/uploads/media-probe.js';
import { magic, media } from '../../../helpers/media-fixtures.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const dir = tempDir('media-probe-');
let n = 0;
const file = (bytes: Buffer, name = `f${n++}`) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return p;
};

/** Every process whose command line mentions `needle` (Linux /proc). */
function processesMentioning(needle: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle)) found.push(Number(pid));
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

describe('MediaProbe (ffprobe)', () => {
  const probe = new MediaProbe();

  it.each([
    ['png', media.png(), 'image/png', ['image']],
    ['png padded to 1 MiB', media.png(1024 * 1024), 'image/png', ['image']],
    ['png widened to 77 bytes', media.png(77), 'image/png', ['image']],
    ['jpeg padded', media.jpeg(70_000), 'image/jpeg', ['image']],
    ['gif padded', media.gif(2000), 'image/gif', ['image']],
    ['webp', media.webp(), 'image/webp', ['image']],
    ['mp4 (video only)', media.mp4(4096), 'video/mp4', ['video']],
    ['mp4 (video and audio)', media.mp4av(), 'video/mp4', ['video', 'audio']],
    ['quicktime', media.mov(2000), 'video/quicktime', ['video']],
    ['webm padded', media.webm(5000), 'video/webm', ['video', 'audio']],
    ['m4a', media.m4a(1000), 'audio/mp4', ['audio']],
    ['mp3 with ID3 padding', media.mp3(3000), 'audio/mpeg', ['audio']],
    ['mp3 frames', media.mp3Frame(), 'audio/mpeg', ['audio']],
    ['aac (ADTS)', media.aac(), 'audio/aac', ['audio']],
    ['wav', media.wav(800), 'audio/wav', ['audio']],
    ['ogg (opus)', media.ogg(), 'audio/ogg', ['audio']],
  ])('decodes %s as %s', async (_name, bytes, type, kinds) => {
    expect(await probe.probe(file(bytes))).toEqual({ ok: true, media: { type, kinds } });
  });

  it('refuses a PNG signature followed by HTML: it opens as PNG but no frame decodes', async () => {
    const html = Buffer.concat([magic.png(16), Buffer.from('<!doctype html><html><body>hi</body></html>')]);
    expect(await probe.probe(file(html))).toEqual({ ok: false, reason: 'undecodable', type: 'image/png' });
    await expect(probe.expect(file(html), 'image')).rejects.toMatchObject({
      status: 400,
      code: 'validation_error',
      message:
        'The file is not an image: it starts like image/png but does not decode (damaged, truncated or something else).',
    });
  });

  it('refuses truncated and header-only files', async () => {
    const png = media.png(300);
    expect(await probe.probe(file(png.subarray(0, 60)))).toMatchObject({ ok: false });
    const mp4 = media.mp4av();
    expect(await probe.probe(file(mp4.subarray(0, mp4.length - 40)))).toMatchObject({ ok: false });
    expect(await probe.probe(file(magic.mp4(4096)))).toMatchObject({ ok: false });
    expect(await probe.probe(file(Buffer.alloc(0)))).toMatchObject({ ok: false });
  });

  it('names the real type, so GIF bytes are not taken for a PNG, and checks the kind', async () => {
    expect(await probe.expect(file(media.gif()), 'image')).toEqual({ type: 'image/gif', kinds: ['image'] });
    await expect(probe.expect(file(media.mp4()), 'audio')).rejects.toThrow(
      'The file is not an audio file: its content is video/mp4.',
    );
    await expect(probe.expect(file(media.png()), 'video')).rejects.toThrow(
      'The file is not a video: its content is image/png.',
    );
    await expect(probe.expect(file(media.text(500)), 'audio')).rejects.toThrow(
      'The file is not an audio file: its content is not in any audio format this service reads.',
    );
  });

  it('opens nothing but the file: playlists and concat lists are not demuxed', async () => {
    const secret = file(media.png(), 'secret.png');
    const hls = `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:${secret}\n#EXT-X-ENDLIST\n`;
    expect(await probe.probe(file(Buffer.from(hls)))).toEqual({ ok: false, reason: 'unrecognised' });
    const concat = `ffconcat version 1.0\nfile ${secret}\n`;
    expect(await probe.probe(file(Buffer.from(concat)))).toEqual({ ok: false, reason: 'unrecognised' });
  });

  it('runs without a shell: a file name with shell syntax is only a name', async () => {
    const marker = path.join(dir, 'shell-ran');
    const odd = file(media.png(), `x;touch ${path.basename(marker)};$(touch ${path.basename(marker)}).png`);
    expect(await probe.probe(odd)).toMatchObject({ ok: true });
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('kills ffprobe when it passes the time limit', async () => {
    // Opening a FIFO nobody writes to blocks ffprobe for ever: only the time limit ends it.
    const fifo = path.join(dir, 'never-written.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const short = new MediaProbe({ timeoutMs: 400 });
    const started = Date.now();
    const pending = short.probe(fifo);
    // It really started (and is blocked) before the limit...
    await expect.poll(() => processesMentioning(fifo).length, { timeout: 5000 }).toBe(1);
    expect(await pending).toEqual({ ok: false, reason: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    // ...and is gone once the probe answers.
    expect(processesMentioning(fifo)).toEqual([]);
    await expect(short.expect(fifo, 'image')).rejects.toMatchObject({
      status: 400,
      message: 'The file could not be decoded within 0.4 s, so it is not accepted.',
    });
  });

  it('dispose kills a running probe; a missing ffprobe is a clear error', async () => {
    const fifo = path.join(dir, 'never-written-2.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const p = new MediaProbe({ timeoutMs: 60_000 });
    const pending = p.probe(fifo);
    await expect.poll(() => processesMentioning(fifo).length, { timeout: 5000 }).toBe(1);
    await p.dispose();
    await expect(pending).rejects.toThrow(/shut down/);
    expect(processesMentioning(fifo)).toEqual([]);

    const missing = new MediaProbe({ ffprobePath: path.join(dir, 'no-such-ffprobe') });
    await expect(missing.probe(file(media.png()))).rejects.toThrow(/ffprobe was not found/);
  });
});
