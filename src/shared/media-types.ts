// The media the video service accepts: supported MIME types, their kind, size limit and file extension.
// Documented in the README ("Uploads"): keep the two in step.

export type MediaKind = 'image' | 'video' | 'audio';
export const MEDIA_KINDS: readonly MediaKind[] = ['image', 'video', 'audio'];

const MiB = 1024 * 1024;

/** Upload size limits per kind (the spec's "20 MB / 200 MB / 50 MB", MB = 1024 * 1024 bytes). */
export const MAX_BYTES: Record<MediaKind, number> = {
  image: 20 * MiB,
  video: 200 * MiB,
  audio: 50 * MiB,
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

/** Names of the same type: `audio/x-wav` is what some clients call `audio/wav`. */
const TYPE_ALIASES: Record<string, string> = { 'audio/x-wav': 'audio/wav' };

/** Whether two content types name the same media type. */
export function sameType(a: string, b: string): boolean {
  const canonical = (t: string) => TYPE_ALIASES[normalizeType(t)] ?? normalizeType(t);
  return canonical(a) === canonical(b);
}

export function kindOfType(type: string): MediaKind | null {
  const t = normalizeType(type);
  return isSupportedType(t) ? MEDIA_TYPES[t].kind : null;
}

export const KIND_ARTICLE: Record<MediaKind, string> = { image: 'an image', video: 'a video', audio: 'an audio file' };

export function formatBytes(n: number): string {
  return n % MiB === 0 ? `${n / MiB} MB` : `${n} bytes`;
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
