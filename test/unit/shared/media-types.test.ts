import { describe, expect, it } from 'vitest';
import { isCaptionsReference, MAX_CAPTION_BYTES } from '../../../src/shared/captions-format.js';
import {
  formatBytes,
  hasUrlScheme,
  KIND_ARTICLE,
  kindOfType,
  MAX_BYTES,
  MEDIA_KINDS,
  MEDIA_TYPES,
  sameType,
  typeOfExtension,
} from '../../../src/shared/media-types.js';
import { PresignUploadRequestSchema, TYPES_TEXT, UploadInfoSchema } from '../../../src/shared/uploads.schema.js';

describe('the media table: captions files', () => {
  it('are a kind of their own, with the captions limit, an article and every type of the table', () => {
    expect(MEDIA_KINDS).toEqual(['image', 'video', 'audio', 'captions']);
    expect(MAX_BYTES.captions).toBe(MAX_CAPTION_BYTES);
    expect(formatBytes(MAX_BYTES.captions)).toBe('512 KB');
    expect(formatBytes(MAX_BYTES.image)).toBe('20 MB');
    for (const kind of MEDIA_KINDS) expect(KIND_ARTICLE[kind]).toBeTruthy();
    for (const [type, { kind }] of Object.entries(MEDIA_TYPES)) expect(MEDIA_KINDS, type).toContain(kind);
  });

  it('take text/vtt and application/x-subrip, with text/srt a name of SubRip', () => {
    expect(kindOfType('text/vtt')).toBe('captions');
    expect(kindOfType('Application/X-SubRip; charset=utf-8')).toBe('captions');
    expect(kindOfType('text/srt')).toBe('captions');
    expect(kindOfType('text/plain')).toBeNull();
    expect(sameType('text/srt', 'application/x-subrip')).toBe(true);
    expect(sameType('text/vtt', 'application/x-subrip')).toBe(false);
    expect(typeOfExtension('uploads/o/k/subs.srt')).toBe('application/x-subrip');
    expect(typeOfExtension('uploads/o/k/subs.vtt')).toBe('text/vtt');
  });

  it('are accepted by presign and listed with their kind; the limits text names every kind', () => {
    for (const contentType of ['text/vtt', 'TEXT/SRT', 'application/x-subrip']) {
      expect(PresignUploadRequestSchema.safeParse({ kind: 'upload', contentType }).success, contentType).toBe(true);
    }
    expect(UploadInfoSchema.shape.kind.options).toEqual([...MEDIA_KINDS]);
    expect(TYPES_TEXT).toContain('captions 512 KB');
    expect(TYPES_TEXT).toContain('text/vtt, application/x-subrip, text/srt: SRT or WebVTT captions');
  });
});

describe('a captions value: text or the storage key of an upload', () => {
  it('is a key when it is one word without a timing arrow', () => {
    expect(isCaptionsReference('uploads/org_1/abc/subs.vtt')).toBe(true);
    expect(isCaptionsReference('  uploads/org_1/abc/subs.srt\n')).toBe(true);
    expect(isCaptionsReference('WEBVTT\n\n00:00.000 --> 00:01.000\nHi')).toBe(false);
    expect(isCaptionsReference('1\n00:00:00,000 --> 00:00:01,000\nHi\n')).toBe(false);
    expect(isCaptionsReference('00:00.000-->00:01.000')).toBe(false);
    expect(isCaptionsReference('not captions at all')).toBe(false);
    expect(isCaptionsReference('')).toBe(false);
  });
  it('never has a URL scheme when it is a key', () => {
    expect(hasUrlScheme('https://example.com/a.vtt')).toBe(true);
    expect(hasUrlScheme('data:text/vtt;base64,AAAA')).toBe(true);
    expect(hasUrlScheme('uploads/org_1/abc/subs.vtt')).toBe(false);
  });
});
