import { isWebVtt } from '../../../../shared/captions-format.js';
import { KIND_ARTICLE, type MediaKind } from '../../../../shared/media-types.js';

/** How many leading bytes `sniff` looks at (enough for every signature below). */
export const SNIFF_BYTES = 16;

export interface Sniffed {
  /** The content type the bytes most likely are. */
  type: string;
  /** The kinds these bytes may serve as (an MP4 or WebM container can hold video or audio only). */
  kinds: readonly MediaKind[];
}

const ascii = (b: Buffer, start: number, end: number) => b.toString('latin1', start, end);

/** ISO base media (MP4/MOV/M4A) major brands that mean audio only or QuickTime. */
const AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ', 'F4B ']);
const QT_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/**
 * Identifies media from its magic numbers: PNG, JPEG, GIF, WEBP, MP4/MOV/M4A (ftyp), WebM/Matroska
 * (EBML), MP3 (ID3 or MPEG frame sync), WAV (RIFF/WAVE), Ogg, AAC (ADTS). null when unknown.
 */
export function sniff(head: Buffer): Sniffed | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { type: 'image/png', kinds: ['image'] };
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
    return { type: 'image/jpeg', kinds: ['image'] };
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a'))
    return { type: 'image/gif', kinds: ['image'] };
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF') {
    const form = ascii(head, 8, 12);
    if (form === 'WEBP') return { type: 'image/webp', kinds: ['image'] };
    if (form === 'WAVE') return { type: 'audio/wav', kinds: ['audio'] };
    return null;
  }
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (AUDIO_BRANDS.has(brand)) return { type: 'audio/mp4', kinds: ['audio'] };
    if (brand === 'qt  ') return { type: 'video/quicktime', kinds: ['video'] };
    // Still-image brands of the same container family are not supported media.
    if (['avif', 'avis', 'heic', 'heix', 'mif1', 'msf1'].includes(brand)) return null;
    return { type: 'video/mp4', kinds: ['video', 'audio'] };
  }
  if (head.length >= 8 && QT_ATOMS.has(ascii(head, 4, 8))) return { type: 'video/quicktime', kinds: ['video'] };
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    return { type: 'video/webm', kinds: ['video', 'audio'] };
  }
  if (head.length >= 4 && ascii(head, 0, 4) === 'OggS') return { type: 'audio/ogg', kinds: ['audio'] };
  if (head.length >= 3 && ascii(head, 0, 3) === 'ID3') return { type: 'audio/mpeg', kinds: ['audio'] };
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0) {
    const layer = (head[1] >> 1) & 0x03;
    // ADTS (AAC) uses MPEG sync with layer bits 00; MP3 frames use a non-zero layer.
    if (layer === 0) return (head[1] & 0xf6) === 0xf0 ? { type: 'audio/aac', kinds: ['audio'] } : null;
    return { type: 'audio/mpeg', kinds: ['audio'] };
  }
  return null;
}

/**
 * Captions have no magic number: text (no NUL or other C0 control bytes but tab, line breaks and form feed) is
 * let through to the full check (UTF-8, then the captions parser); media bytes are not.
 */
function sniffCaptions(head: Buffer): Sniffed | null {
  if (head.length === 0 || sniff(head)) return null;
  if (head.some((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d)) return null;
  return { type: isWebVtt(head.toString('utf8')) ? 'text/vtt' : 'application/x-subrip', kinds: ['captions'] };
}

/** The sniffed media if the bytes can serve as `kind`, else null. */
export function sniffAs(head: Buffer, kind: MediaKind): Sniffed | null {
  if (kind === 'captions') return sniffCaptions(head);
  const found = sniff(head);
  return found && found.kinds.includes(kind) ? found : null;
}

/** The reason text for bytes that are not of the expected kind (independent of any variable name). */
export function notOfKindMessage(kind: MediaKind, head: Buffer): string {
  const found = sniff(head);
  if (head.length === 0) return `The file is empty, so it is not ${KIND_ARTICLE[kind]}.`;
  return found
    ? `The file is not ${KIND_ARTICLE[kind]}: its content is ${found.type}.`
    : `The file is not ${KIND_ARTICLE[kind]}: its content is not in any ${kind} format this service reads.`;
}
