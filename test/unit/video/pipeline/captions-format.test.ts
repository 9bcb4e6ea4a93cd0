import { describe, expect, it } from 'vitest';
import {
  captionsProblem,
  CaptionsFormatError,
  MAX_CAPTION_CUES,
  parseCaptions,
  toWebVtt,
} from '../../../../src/shared/captions-format.js';

const SRT = `1
00:00:01,000 --> 00:00:02,500
Hello <i>there</i>

2
00:00:03,250 --> 00:00:04,000
{\\an8}Two lines
on one cue &amp; more
`;

const VTT = `WEBVTT - a title line
Kind: captions

NOTE a comment
over two lines

intro
00:01.000 --> 00:02.500 align:start position:10%
<v Ann>Hello</v> <c.red>there</c>

00:00:03.250 --> 00:00:04.000
Two lines
on one cue &amp; more
`;

describe('captions files', () => {
  it('reads SRT and WebVTT to the same cues (tags, SSA overrides, settings and notes dropped)', () => {
    const expected = [
      { start: 1, end: 2.5, text: 'Hello there' },
      { start: 3.25, end: 4, text: 'Two lines\non one cue & more' },
    ];
    expect(parseCaptions(SRT)).toEqual(expected);
    expect(parseCaptions(VTT)).toEqual(expected);
    expect(parseCaptions(SRT.replace(/\n/g, '\r\n'))).toEqual(expected);
    expect(parseCaptions(`\ufeff${VTT}`)).toEqual(expected);
  });

  it('reads hours of three digits and short fractions', () => {
    expect(parseCaptions('1\n100:00:00,5 --> 100:00:01,25\nx\n')).toEqual([
      { start: 360000.5, end: 360001.25, text: 'x' },
    ]);
  });

  it('writes WebVTT that reads back the same, markup escaped', () => {
    const cues = [
      { start: 0.5, end: 1.25, text: 'a < b & c' },
      { start: 3661.001, end: 3662, text: 'arrow --> here\nsecond' },
    ];
    const vtt = toWebVtt(cues);
    expect(vtt.startsWith('WEBVTT\n\n1\n00:00:00.500 --> 00:00:01.250\na &lt; b &amp; c\n')).toBe(true);
    expect(parseCaptions(vtt)).toEqual(cues);
  });

  it('refuses what is not captions, saying where', () => {
    const bad = [
      ['', /no caption cue/],
      ['just some words', /line 1: expected a cue timing line/],
      ['1\n00:00:02,000 --> 00:00:01,000\nbackwards\n', /line 2: the cue ends/],
      ['1\n00:00:xx,000 --> 00:00:01,000\nx\n', /line 2: "00:00:xx,000" is not a timestamp/],
      ['WEBVTT\n\n00:01.000 --> 00:02.000\n\n', /no caption cue/],
    ] as const;
    for (const [text, message] of bad) {
      expect(() => parseCaptions(text)).toThrow(CaptionsFormatError);
      expect(() => parseCaptions(text)).toThrow(message);
      expect(captionsProblem(text)).toMatch(/^not valid SRT or WebVTT captions: /);
    }
    expect(captionsProblem(SRT)).toBeNull();
  });

  it('limits the number of cues and the size', () => {
    const many = Array.from(
      { length: MAX_CAPTION_CUES + 1 },
      (_, i) => `${i + 1}\n00:00:0${i % 9},000 --> 00:00:0${(i % 9) + 1},000\nx\n`,
    );
    expect(() => parseCaptions(many.join('\n'))).toThrow(/at most 2000 cues/);
    expect(() => parseCaptions(`1\n00:00:01,000 --> 00:00:02,000\n${'x'.repeat(600 * 1024)}\n`)).toThrow(
      /at most 512 KB/,
    );
  });
});
