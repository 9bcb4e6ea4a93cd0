// SRT and WebVTT captions: parsed into cues (start, end, text) and written back as WebVTT. Pure (no Node APIs):
// the service checks and renders with it, the desktop app can check a captions value before sending it. No library in the
// project reads them, and the formats are small: this parser follows the WebVTT spec's cue timing syntax and
// SubRip's de-facto one, keeps only what a burned-in caption or a sidecar needs (time and plain text), and says
// which line is wrong when a file cannot be read.

export interface CaptionCue {
  /** Seconds from the start of the video. */
  start: number;
  end: number;
  /** Plain text (tags removed, entities decoded); lines joined with "\n". */
  text: string;
}

export const MAX_CAPTION_BYTES = 512 * 1024;
export const MAX_CAPTION_CUES = 2000;

export class CaptionsFormatError extends Error {
  override name = 'CaptionsFormatError';
}

/** `01:02:03,456` (SRT), `01:02:03.456` or `02:03.456` (WebVTT); hours may have more digits. */
const TIMESTAMP = /^(?:(\d{1,3}):)?([0-5]?\d):([0-5]\d)[.,](\d{1,3})$/;
const TIMING = /^\s*(\S+)\s+-->\s+(\S+)(?:\s+.*)?$/;

function seconds(stamp: string, line: number): number {
  const m = TIMESTAMP.exec(stamp);
  if (!m) throw new CaptionsFormatError(`line ${line}: "${stamp}" is not a timestamp (hh:mm:ss,mmm or hh:mm:ss.mmm)`);
  const [, h, min, s, frac] = m;
  return Number(h ?? 0) * 3600 + Number(min) * 60 + Number(s) + Number(frac!.padEnd(3, '0')) / 1000;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  lrm: '',
  rlm: '',
};

/** Markup a caption may carry that is not text: WebVTT/SRT tags (<i>, <c.red>, <v Name>, <00:01.000>), SSA overrides ({\an8}). */
function plainText(raw: string): string {
  return raw
    .replace(/<[^>\n]*>/g, '')
    .replace(/\{\\[^}\n]*\}/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n');
}

/** Whether the text looks like WebVTT (its signature line) rather than SRT. */
export function isWebVtt(text: string): boolean {
  return /^\ufeff?WEBVTT(?:[ \t].*)?(?:\r?\n|$)/.test(text);
}

/**
 * Cues of an SRT or WebVTT text, in file order (a player shows overlapping cues together; so does the burn-in).
 * Refused: no cue at all, a cue that ends before it starts, more than MAX_CAPTION_CUES cues, a text over
 * MAX_CAPTION_BYTES. Blocks without a timing line (SRT numbers alone, WebVTT NOTE/STYLE/REGION) are skipped.
 */
export function parseCaptions(input: string): CaptionCue[] {
  if (new TextEncoder().encode(input).length > MAX_CAPTION_BYTES)
    throw new CaptionsFormatError(`captions may be at most ${MAX_CAPTION_BYTES / 1024} KB`);
  const text = input.replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');
  const vtt = isWebVtt(text);
  const lines = text.split('\n');
  const cues: CaptionCue[] = [];
  let i = vtt ? 1 : 0;
  if (vtt) while (i < lines.length && lines[i]!.trim() !== '') i++; // header lines after WEBVTT
  while (i < lines.length) {
    while (i < lines.length && lines[i]!.trim() === '') i++;
    const blockStart = i;
    while (i < lines.length && lines[i]!.trim() !== '') i++;
    const block = lines.slice(blockStart, i);
    if (!block.length) break;
    if (vtt && /^(NOTE|STYLE|REGION)\b/.test(block[0]!)) continue;
    const t = block.findIndex((l) => l.includes('-->'));
    if (t < 0 || t > 1) {
      if (block.some((l) => l.includes('-->')) || !/^\d+$/.test(block[0]!.trim()) || block.length > 1)
        throw new CaptionsFormatError(`line ${blockStart + 1}: expected a cue timing line "start --> end"`);
      continue;
    }
    const lineNo = blockStart + t + 1;
    const m = TIMING.exec(block[t]!);
    if (!m) throw new CaptionsFormatError(`line ${lineNo}: expected "start --> end"`);
    const start = seconds(m[1]!, lineNo);
    const end = seconds(m[2]!, lineNo);
    if (end <= start)
      throw new CaptionsFormatError(`line ${lineNo}: the cue ends (${m[2]}) before it starts (${m[1]})`);
    const body = plainText(block.slice(t + 1).join('\n'));
    if (body) cues.push({ start, end, text: body });
    if (cues.length > MAX_CAPTION_CUES)
      throw new CaptionsFormatError(`captions may have at most ${MAX_CAPTION_CUES} cues`);
  }
  if (!cues.length) throw new CaptionsFormatError('no caption cue found (SRT or WebVTT with "start --> end" lines)');
  return cues;
}

/**
 * Whether a captions value is the storage key of a captions upload rather than the captions themselves: SRT and
 * WebVTT text always has a line break and a "start --> end" timing, a storage key is one word (no white space).
 * A one-word value that is no key of the organization is then refused as such (400), never taken as text.
 */
export function isCaptionsReference(value: string): boolean {
  const v = value.trim();
  return v.length > 0 && !/\s/.test(v) && !v.includes('-->');
}

/** Captions are never fetched from a URL (quote and generate refuse one alike). */
export const CAPTIONS_URL_REFUSAL =
  'captions are SRT or WebVTT text or the storage key of a captions upload, not a URL';

/** Why a captions value cannot be used, or null (generate answers 400 with it). */
export function captionsProblem(text: string): string | null {
  try {
    parseCaptions(text);
    return null;
  } catch (err) {
    if (err instanceof CaptionsFormatError) return `not valid SRT or WebVTT captions: ${err.message}`;
    throw err;
  }
}

function vttStamp(sec: number): string {
  const ms = Math.round(sec * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** A WebVTT file of the cues (text escaped: a "<" or "&" in a caption is text, not markup). */
export function toWebVtt(cues: readonly CaptionCue[]): string {
  const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = cues.map(
    (c, i) => `${i + 1}\n${vttStamp(c.start)} --> ${vttStamp(c.end)}\n${escape(c.text).replace(/-->/g, '--&gt;')}`,
  );
  return `WEBVTT\n\n${body.join('\n\n')}\n`;
}
