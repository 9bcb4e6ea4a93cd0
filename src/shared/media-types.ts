// The media the video service accepts: supported MIME types, their kind, size limit and file extension.
// Documented in docs/video-service.md#uploads: keep the two in step.
import { CAPTIONS_URL_REFUSAL, captionsProblem, isCaptionsReference, MAX_CAPTION_BYTES } from './captions-format.js';

/** `captions`: SRT or WebVTT text files, for a template's captions variable (checked as text, not decoded as media). */
export const MEDIA_KINDS = ['image', 'video', 'audio', 'captions'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

const KiB = 1024;
const MiB = 1024 * KiB;

/** Upload size limits per kind (the spec's "20 MB / 200 MB / 50 MB", MB = 1024 * 1024 bytes; captions 512 KB). */
export const MAX_BYTES: Record<MediaKind, number> = {
  image: 20 * MiB,
  video: 200 * MiB,
  audio: 50 * MiB,
  captions: MAX_CAPTION_BYTES,
};

/** Supported content types: kind and the extension used in storage keys. */
export const MEDIA_TYPES = {
  'image/png': { kind: 'image', ext: 'png' },
  'image/jpeg': { kind: 'image', ext: 'jpg' },
  'image/webp': { kind: 'image', ext: 'webp' },
  'image/gif': { kind: 'image', ext: 'gif' },
  'video/mp4': { kind: 'video', ext: 'mp4' },
  'video/quicktime': { kind: 'video', ext: 'mov' },
  'video/webm': { kind: 'video', ext: 'webm' },
  'audio/mpeg': { kind: 'audio', ext: 'mp3' },
  'audio/wav': { kind: 'audio', ext: 'wav' },
  'audio/x-wav': { kind: 'audio', ext: 'wav' },
  'audio/mp4': { kind: 'audio', ext: 'm4a' },
  'audio/aac': { kind: 'audio', ext: 'aac' },
  'audio/ogg': { kind: 'audio', ext: 'ogg' },
  'audio/webm': { kind: 'audio', ext: 'weba' },
  'text/vtt': { kind: 'captions', ext: 'vtt' },
  'application/x-subrip': { kind: 'captions', ext: 'srt' },
  'text/srt': { kind: 'captions', ext: 'srt' },
} as const satisfies Record<string, { kind: MediaKind; ext: string }>;

export type SupportedType = keyof typeof MEDIA_TYPES;
export const SUPPORTED_TYPES = Object.keys(MEDIA_TYPES) as SupportedType[];

export function isSupportedType(type: string): type is SupportedType {
  return Object.prototype.hasOwnProperty.call(MEDIA_TYPES, type);
}

/** `image/PNG; charset=x` -> `image/png`. */
export function normalizeType(type: string): string {
  return type.split(';')[0].trim().toLowerCase();
}

/** Names of the same type: `audio/x-wav` is what some clients call `audio/wav`, `text/srt` `application/x-subrip`. */
const TYPE_ALIASES: Record<string, string> = { 'audio/x-wav': 'audio/wav', 'text/srt': 'application/x-subrip' };

/** Whether two content types name the same media type. */
export function sameType(a: string, b: string): boolean {
  const canonical = (t: string) => TYPE_ALIASES[normalizeType(t)] ?? normalizeType(t);
  return canonical(a) === canonical(b);
}

export function kindOfType(type: string): MediaKind | null {
  const t = normalizeType(type);
  return isSupportedType(t) ? MEDIA_TYPES[t].kind : null;
}

export const KIND_ARTICLE: Record<MediaKind, string> = {
  image: 'an image',
  video: 'a video',
  audio: 'an audio file',
  captions: 'a captions file (SRT or WebVTT)',
};

/** A value that starts with a URL scheme (`https:`, `data:`, ...): never a storage key, which has none. */
export const hasUrlScheme = (value: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(value);

/**
 * Why a captions variable's value (or a template's default for one) cannot be used, or null: text is checked as
 * captions; a reference (the storage key of a captions upload) is looked up when the generation is made, but a URL
 * never is.
 */
export function captionsValueProblem(value: string): string | null {
  if (!isCaptionsReference(value)) return captionsProblem(value);
  return hasUrlScheme(value.trim()) ? CAPTIONS_URL_REFUSAL : null;
}

export function formatBytes(n: number): string {
  if (n % MiB === 0) return `${n / MiB} MB`;
  return n % KiB === 0 ? `${n / KiB} KB` : `${n} bytes`;
}

/** The extension a stored object of this type gets (`bin` when unknown). */
export function extensionOf(type: string): string {
  const t = normalizeType(type);
  return isSupportedType(t) ? MEDIA_TYPES[t].ext : 'bin';
}

/** Content type from a key's extension, for objects stored without metadata. */
export function typeOfExtension(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  const found = SUPPORTED_TYPES.find((t) => MEDIA_TYPES[t].ext === ext);
  return found ?? 'application/octet-stream';
}

/** A file name reduced to `[A-Za-z0-9._-]`, without its extension, at most 64 characters; `file` if nothing is left. */
export function sanitizeBaseName(fileName: string | undefined | null): string {
  if (!fileName) return 'file';
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const clean = stem
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '')
    .replace(/_+/g, '_')
    .slice(0, 64)
    .replace(/[._-]+$/, '');
  return clean || 'file';
}
