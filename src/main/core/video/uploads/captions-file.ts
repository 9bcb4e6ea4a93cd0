// A captions upload (SRT or WebVTT) is checked the way pasted captions are: its bytes must be UTF-8 text that the
// captions parser reads. That is this kind's "decoding" (media kinds are decoded with ffprobe, media-probe.ts).
// Messages name the line or cue that is wrong, never the file's text.
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { captionsProblem, isWebVtt, MAX_CAPTION_BYTES } from '../../../../shared/captions-format.js';
import { formatBytes, KIND_ARTICLE, type MediaKind } from '../../../../shared/media-types.js';
import { badRequest } from '../../errors.js';

const notCaptions = (why: string) => badRequest(`The file is not ${KIND_ARTICLE.captions}: ${why}.`);
const tooLarge = () => notCaptions(`it is larger than the ${formatBytes(MAX_CAPTION_BYTES)} captions may have`);

/** The text of a captions file's bytes; a 400 when they are not UTF-8 or not valid SRT/WebVTT. */
export function captionsText(bytes: Buffer): string {
  if (bytes.length > MAX_CAPTION_BYTES) throw tooLarge();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notCaptions('it is not UTF-8 text');
  }
  const problem = captionsProblem(text);
  if (problem) throw notCaptions(`it is ${problem}`);
  return text;
}

/** The content type captions text is stored as: WebVTT by its signature line, else SubRip. */
export const captionsType = (text: string): string => (isWebVtt(text) ? 'text/vtt' : 'application/x-subrip');

/** Checks a received file as captions (the verifier of a captions upload); 400 saying why it is not. */
export async function expectCaptionsFile(file: string): Promise<{ type: string; kinds: readonly MediaKind[] }> {
  const { size } = await fs.promises.stat(file);
  if (size > MAX_CAPTION_BYTES) throw tooLarge();
  const text = captionsText(await fs.promises.readFile(file));
  return { type: captionsType(text), kinds: ['captions'] };
}

/** The text of a stored captions object (read whole: at most MAX_CAPTION_BYTES), checked again on the way. */
export async function readCaptionsText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_CAPTION_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return captionsText(Buffer.concat(chunks));
}
