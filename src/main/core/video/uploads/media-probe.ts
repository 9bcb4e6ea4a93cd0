import { spawn, type ChildProcess } from 'node:child_process';
import { z } from 'zod';
import { badRequest } from '../../errors.js';
import { KIND_ARTICLE, type MediaKind } from '../../../../shared/media-types.js';
import { expectCaptionsFile } from './captions-file.js';

/** What a file really is, found by decoding it. */
export interface ProbedMedia {
  /** The content type of the bytes (e.g. `image/gif` whatever the upload was signed for). */
  type: string;
  /** The kinds the file can serve as: an MP4 with decodable video and audio serves as either. */
  kinds: readonly MediaKind[];
}

export type ProbeOutcome =
  | { ok: true; media: ProbedMedia }
  /** unrecognised: no allowed demuxer opens it; undecodable: opens, but no frame decodes; timeout: killed. */
  | { ok: false; reason: 'unrecognised' | 'undecodable' | 'timeout'; type?: string };

export interface MediaProbeOptions {
  /** The ffprobe executable (default `ffprobe` on PATH). */
  ffprobePath?: string;
  /** Time limit of one probe; past it the child is killed with SIGKILL. */
  timeoutMs?: number;
  /** Probes that run at once; more wait their turn (each decodes with its own threads). */
  concurrency?: number;
}

/**
 * The only demuxers ffprobe may use. Keeps playlists and concat lists (hls, concat, ...) from making it
 * open other files, and anything that is not one of the supported media types from being accepted.
 */
const DEMUXERS = ['png_pipe', 'jpeg_pipe', 'webp_pipe', 'gif', 'mov', 'matroska', 'mp3', 'wav', 'aac', 'ogg'];
const IMAGE_DEMUXERS: Record<string, string> = {
  png_pipe: 'image/png',
  jpeg_pipe: 'image/jpeg',
  webp_pipe: 'image/webp',
  gif: 'image/gif',
};
const AUDIO_DEMUXERS: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
};
const AUDIO_BRANDS = new Set(['M4A', 'M4B', 'M4P', 'F4A', 'F4B']);
/** ffprobe's JSON can be large for odd files; past this it is not media we want. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

const ProbeJson = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
        nb_read_frames: z.string().optional(),
        disposition: z.object({ attached_pic: z.number().optional() }).optional(),
      }),
    )
    .default([]),
  format: z.object({
    format_name: z.string(),
    tags: z.object({ major_brand: z.string().optional() }).optional(),
  }),
});
type ProbeJson = z.infer<typeof ProbeJson>;

/**
 * Decides the real type from ffprobe's answer. A stream counts only if at least one of its frames
 * decoded (`nb_read_frames`), so a PNG signature followed by HTML, a truncated file or a header with
 * garbage behind it is `undecodable`, not the type its first bytes claim.
 */
export function classifyProbe(json: ProbeJson): ProbeOutcome {
  const demuxers = json.format.format_name.split(',');
  const decoded = (s: ProbeJson['streams'][number]) => Number(s.nb_read_frames) > 0;
  const video = json.streams.filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = json.streams.filter((s) => s.codec_type === 'audio');
  const videoOk = video.some((s) => decoded(s) && (s.width ?? 0) > 0 && (s.height ?? 0) > 0);
  const audioOk = audio.some(decoded);
  const image = demuxers.map((d) => IMAGE_DEMUXERS[d]).find(Boolean);
  if (image) return videoOk ? { ok: true, media: { type: image, kinds: ['image'] } } : bad(image);
  const audioOnly = demuxers.map((d) => AUDIO_DEMUXERS[d]).find(Boolean);
  if (audioOnly) return audioOk ? { ok: true, media: { type: audioOnly, kinds: ['audio'] } } : bad(audioOnly);

  const mov = demuxers.includes('mov');
  const matroska = demuxers.includes('matroska');
  if (!mov && !matroska) return { ok: false, reason: 'unrecognised' };
  const brand = (json.format.tags?.major_brand ?? '').trim();
  const videoType = mov ? (brand === 'qt' ? 'video/quicktime' : 'video/mp4') : 'video/webm';
  // A video stream that does not decode makes the file broken, even if its audio would play.
  if (video.length > 0 && !videoOk) return bad(videoType);
  if (videoOk && !(mov && AUDIO_BRANDS.has(brand))) {
    // QuickTime has no audio-only type here, so a .mov only ever serves as a video.
    const kinds: MediaKind[] = audioOk && videoType !== 'video/quicktime' ? ['video', 'audio'] : ['video'];
    return { ok: true, media: { type: videoType, kinds } };
  }
  const audioType = mov ? 'audio/mp4' : 'audio/webm';
  return audioOk ? { ok: true, media: { type: audioType, kinds: ['audio'] } } : bad(audioType);
}

const bad = (type: string): ProbeOutcome => ({ ok: false, reason: 'undecodable', type });

/** The type to record when media serves as `kind`: a container holding audio is labelled as audio. */
export function typeForKind(found: { type: string }, kind: MediaKind): string {
  if (kind === 'audio' && found.type === 'video/mp4') return 'audio/mp4';
  if (kind === 'audio' && found.type === 'video/webm') return 'audio/webm';
  return found.type;
}

/**
 * Validates media by decoding it with ffprobe (images too: png/jpeg/webp/gif decode through their
 * pipe demuxers). Spawned without a shell, input limited to the file protocol and the supported
 * demuxers, frames decoded over the first second only (enough to prove the streams decode, cheap
 * for a 200 MB video), and killed with SIGKILL past the time limit.
 */
export class MediaProbe {
  private readonly ffprobePath: string;
  readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly running = new Set<ChildProcess>();
  private readonly waiting: (() => void)[] = [];
  private slots = 0;
  private disposed = false;

  constructor(opts: MediaProbeOptions = {}) {
    this.ffprobePath = opts.ffprobePath ?? 'ffprobe';
    this.timeoutMs = opts.timeoutMs ?? 20_000;
    this.concurrency = Math.max(1, opts.concurrency ?? 2);
  }

  /** What the file at `path` really is. Rejects only when ffprobe cannot run (missing, disposed). */
  async probe(path: string): Promise<ProbeOutcome> {
    await this.acquire();
    try {
      return await this.run(path);
    } finally {
      this.release();
    }
  }

  /**
   * The file's real media if it decodes as `kind`; otherwise a 400 validation_error saying why. Captions are
   * read as text by the captions parser instead (no ffprobe, no probe slot).
   */
  async expect(path: string, kind: MediaKind): Promise<ProbedMedia> {
    if (kind === 'captions') return expectCaptionsFile(path);
    const outcome = await this.probe(path);
    const article = KIND_ARTICLE[kind];
    if (outcome.ok) {
      if (!outcome.media.kinds.includes(kind))
        throw badRequest(`The file is not ${article}: its content is ${outcome.media.type}.`);
      return outcome.media;
    }
    if (outcome.reason === 'timeout')
      throw badRequest(`The file could not be decoded within ${this.timeoutMs / 1000} s, so it is not accepted.`);
    if (outcome.reason === 'undecodable') {
      throw badRequest(
        `The file is not ${article}: it starts like ${outcome.type} but does not decode (damaged, truncated or something else).`,
      );
    }
    throw badRequest(`The file is not ${article}: its content is not in any ${kind} format this service reads.`);
  }

  private run(path: string): Promise<ProbeOutcome> {
    if (this.disposed) return Promise.reject(new Error('The media probe has been shut down.'));
    const args = [
      '-v',
      'error',
      '-hide_banner',
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      DEMUXERS.join(','),
      '-count_frames',
      '-read_intervals',
      '%+1',
      '-show_entries',
      'format=format_name:format_tags=major_brand:stream=codec_type,width,height,nb_read_frames:stream_disposition=attached_pic',
      '-of',
      'json',
      // The file: protocol prefix so no part of the path is read as another protocol or an option.
      `file:${path}`,
    ];
    return new Promise((resolve, reject) => {
      const child = spawn(this.ffprobePath, args, { stdio: ['ignore', 'pipe', 'ignore'], shell: false });
      this.running.add(child);
      const chunks: Buffer[] = [];
      let length = 0;
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, this.timeoutMs);
      child.stdout?.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
        else chunks.push(chunk);
      });
      child.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        this.running.delete(child);
        reject(
          err.code === 'ENOENT'
            ? new Error(`ffprobe was not found ("${this.ffprobePath}"); install ffmpeg to accept media uploads.`)
            : err,
        );
      });
      // 'close' (not 'exit'): the child is gone and its output fully read.
      child.once('close', (code) => {
        clearTimeout(timer);
        this.running.delete(child);
        if (timedOut) return resolve({ ok: false, reason: 'timeout' });
        if (this.disposed) return reject(new Error('The media probe has been shut down.'));
        if (code !== 0 || length > MAX_OUTPUT_BYTES) return resolve({ ok: false, reason: 'unrecognised' });
        const parsed = ProbeJson.safeParse(safeJson(Buffer.concat(chunks).toString('utf8')));
        resolve(parsed.success ? classifyProbe(parsed.data) : { ok: false, reason: 'unrecognised' });
      });
    });
  }

  private async acquire(): Promise<void> {
    if (this.slots < this.concurrency) {
      this.slots++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.slots--;
  }

  /** Kills running probes; later calls fail. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const child of this.running) child.kill('SIGKILL');
    for (const next of this.waiting.splice(0)) next();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
