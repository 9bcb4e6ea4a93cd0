import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CAPTION_BYTES } from '../../../../src/shared/captions-format.js';
import {
  captionsText,
  expectCaptionsFile,
  readCaptionsText,
} from '../../../../src/main/core/video/uploads/captions-file.js';
import { MediaProbe } from '../../../../src/main/core/video/uploads/media-probe.js';
import { notOfKindMessage, sniff, sniffAs } from '../../../../src/main/core/video/uploads/media-sniffer.js';
import { media } from '../../../helpers/media-fixtures.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const dir = tempDir('captions-file-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SRT = '1\n00:00:00,500 --> 00:00:01,250\nHello\n';
const VTT = 'WEBVTT\n\n00:00.500 --> 00:01.250\nHello\n';

describe('captions files: first bytes', () => {
  it('let text through as captions, and media or binary bytes not', () => {
    expect(sniffAs(Buffer.from(VTT.slice(0, 16)), 'captions')).toEqual({ type: 'text/vtt', kinds: ['captions'] });
    expect(sniffAs(Buffer.from(SRT.slice(0, 16)), 'captions')).toEqual({
      type: 'application/x-subrip',
      kinds: ['captions'],
    });
    expect(sniffAs(media.png().subarray(0, 16), 'captions')).toBeNull();
    expect(sniffAs(Buffer.from([0x31, 0x0a, 0x00, 0x30]), 'captions')).toBeNull();
    expect(sniffAs(Buffer.alloc(0), 'captions')).toBeNull();
    // Text is still no media, and captions no image.
    expect(sniff(Buffer.from(SRT))).toBeNull();
    expect(sniffAs(Buffer.from(SRT), 'image')).toBeNull();
    expect(notOfKindMessage('captions', media.png())).toBe(
      'The file is not a captions file (SRT or WebVTT): its content is image/png.',
    );
  });
});

describe('captions files: the whole file', () => {
  it('is UTF-8 text the captions parser reads; the reason names the line, never the text', () => {
    expect(captionsText(Buffer.from(SRT))).toBe(SRT);
    expect(() => captionsText(Buffer.from([0x31, 0x0a, 0xff, 0xfe]))).toThrow(/not UTF-8 text/);
    let message = '';
    try {
      captionsText(Buffer.from('1\n00:00:02,000 --> 00:00:01,000\nconfidential words\n'));
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(
      /^The file is not a captions file \(SRT or WebVTT\): it is not valid SRT or WebVTT captions: line 2/,
    );
    expect(message).not.toContain('confidential');
    expect(() => captionsText(Buffer.alloc(MAX_CAPTION_BYTES + 1, 0x41))).toThrow(/larger than the 512 KB/);
  });

  it('is what the media probe checks for kind captions, with its real type', async () => {
    const probe = new MediaProbe({ ffprobePath: '/nonexistent/ffprobe' }); // never run for captions
    const vtt = path.join(dir, 'a.vtt');
    const srt = path.join(dir, 'a.srt');
    fs.writeFileSync(vtt, VTT);
    fs.writeFileSync(srt, SRT);
    expect(await probe.expect(vtt, 'captions')).toEqual({ type: 'text/vtt', kinds: ['captions'] });
    expect(await expectCaptionsFile(srt)).toEqual({ type: 'application/x-subrip', kinds: ['captions'] });
    await probe.dispose();
  });

  it('reads a stored object as text, refusing one past the limit', async () => {
    expect(await readCaptionsText(Readable.from([Buffer.from(VTT.slice(0, 10)), Buffer.from(VTT.slice(10))]))).toBe(
      VTT,
    );
    const big = Readable.from([Buffer.alloc(MAX_CAPTION_BYTES, 0x41), Buffer.from('x')]);
    await expect(readCaptionsText(big)).rejects.toThrow(/larger than/);
  });
});
