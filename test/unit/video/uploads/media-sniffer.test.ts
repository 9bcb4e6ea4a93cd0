import { describe, expect, it } from 'vitest';
import { notOfKindMessage, sniff, sniffAs } from '../../../../src/main/core/video/uploads/media-sniffer.js';
import {
  extensionOf,
  kindOfType,
  sanitizeBaseName,
  SUPPORTED_TYPES,
  typeOfExtension,
} from '../../../../src/shared/media-types.js';
import { decodeKey, encodeKey, isValidKey } from '../../../../src/main/core/video/uploads/storage/blob-keys.js';
import { parseRange } from '../../../../src/main/core/video/uploads/uploads.service.js';
import { media } from '../../../helpers/media-fixtures.js';

describe('media sniffer', () => {
  it.each([
    ['png', 'image/png', 'image'],
    ['jpeg', 'image/jpeg', 'image'],
    ['gif', 'image/gif', 'image'],
    ['webp', 'image/webp', 'image'],
    ['mp4', 'video/mp4', 'video'],
    ['mov', 'video/quicktime', 'video'],
    ['webm', 'video/webm', 'video'],
    ['m4a', 'audio/mp4', 'audio'],
    ['mp3', 'audio/mpeg', 'audio'],
    ['mp3Frame', 'audio/mpeg', 'audio'],
    ['aac', 'audio/aac', 'audio'],
    ['wav', 'audio/wav', 'audio'],
    ['ogg', 'audio/ogg', 'audio'],
  ] as const)('recognises %s', (name, type, kind) => {
    const found = sniff(media[name]().subarray(0, 16));
    expect(found?.type).toBe(type);
    expect(found?.kinds).toContain(kind);
  });

  it('MP4 and WebM containers may serve as audio; images never as video', () => {
    expect(sniffAs(media.mp4(), 'audio')).not.toBeNull();
    expect(sniffAs(media.webm(), 'audio')).not.toBeNull();
    expect(sniffAs(media.png(), 'video')).toBeNull();
    expect(sniffAs(media.m4a(), 'video')).toBeNull();
  });

  it('rejects text, empty and truncated input with a kind-based reason', () => {
    expect(sniff(media.text())).toBeNull();
    expect(sniff(Buffer.alloc(0))).toBeNull();
    expect(sniff(media.png().subarray(0, 4))).toBeNull();
    expect(notOfKindMessage('image', media.mp4())).toBe('The file is not an image: its content is video/mp4.');
    expect(notOfKindMessage('video', media.text())).toMatch(
      /^The file is not a video: its content is not in any video format this service reads\./,
    );
    expect(notOfKindMessage('audio', Buffer.alloc(0))).toMatch(/empty/);
  });
});

describe('media types', () => {
  it('maps every supported type to a kind and extension', () => {
    for (const t of SUPPORTED_TYPES) {
      expect(kindOfType(t)).toMatch(/^(image|video|audio|captions)$/);
      expect(extensionOf(t)).toMatch(/^[a-z0-9]+$/);
    }
    expect(kindOfType('Image/PNG; charset=binary')).toBe('image');
    expect(kindOfType('application/pdf')).toBeNull();
    expect(typeOfExtension('a/b/c.mov')).toBe('video/quicktime');
    expect(typeOfExtension('a/b/c.xyz')).toBe('application/octet-stream');
  });

  it('sanitizes file names for storage keys', () => {
    expect(sanitizeBaseName('My Photo (1).PNG')).toBe('My_Photo_1');
    expect(sanitizeBaseName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeBaseName('C:\\Users\\x\\clip.mp4')).toBe('clip');
    expect(sanitizeBaseName('...')).toBe('file');
    expect(sanitizeBaseName(undefined)).toBe('file');
    expect(sanitizeBaseName('é'.repeat(100)).length).toBeLessThanOrEqual(64);
    expect(sanitizeBaseName('a'.repeat(200))).toHaveLength(64);
  });
});

describe('storage keys', () => {
  it('accepts safe relative paths only', () => {
    expect(isValidKey('uploads/org_1/abc/file.png')).toBe(true);
    for (const bad of [
      '',
      '/abs',
      'a//b',
      '../x',
      'a/../b',
      'a/.hidden',
      'a\\b',
      'a/b c',
      'a/b\u0000',
      'x'.repeat(2000),
    ]) {
      expect(isValidKey(bad), bad).toBe(false);
    }
  });
  it('round-trips through URL paths and rejects encoded traversal', () => {
    const key = 'uploads/org_1/abc/a+b=c@d.png';
    expect(decodeKey(encodeKey(key))).toBe(key);
    expect(decodeKey('uploads/%2e%2e/x')).toBeNull();
    expect(decodeKey('uploads%2F..%2Fx')).toBeNull();
    expect(decodeKey('%E0%A4%A')).toBeNull();
  });
});

describe('Range parsing', () => {
  it('handles the single-range forms', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
  });
});
