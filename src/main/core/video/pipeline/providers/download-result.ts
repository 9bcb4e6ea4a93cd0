import fs from 'node:fs';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { APP_VERSION } from '../../../../../shared/version.js';
import { renameSyncRetrying } from '../../../fs/replace-file.js';
import { type Got, httpGuard, loadGot } from '../../../net/outbound-http.js';
import { OutboundPolicy, outboundRefusal } from '../../../net/outbound-policy.js';
import { SNIFF_BYTES, sniff, sniffAs } from '../../uploads/media-sniffer.js';
import { ProviderError, type ProviderContext } from '../video-provider.js';
import { abortReason } from './provider-http.js';

export interface DownloadResultOptions {
  /** A result larger than this is refused (default 1 GiB). */
  maxBytes?: number;
  /** Time limit of the whole download (default 10 minutes). */
  timeoutMs?: number;
  /** Redirects followed (CDNs redirect to storage; default 5). */
  maxRedirects?: number;
  /**
   * Where the URL and its redirects may lead: a URL a provider answered with obeys the outbound policy
   * (default: the default policy); null for a URL built from a configured base URL (ComfyUI's /view).
   */
  outbound?: OutboundPolicy | null;
}

const EXT: Record<string, string> = { 'video/mp4': '.mp4', 'video/webm': '.webm', 'video/quicktime': '.mov' };
const GiB = 1024 * 1024 * 1024;

const MiB = 1024 * 1024;

function sizeText(n: number): string {
  if (n >= GiB) return `${Math.round((n / GiB) * 10) / 10} GB`;
  return n >= MiB ? `${Math.round((n / MiB) * 10) / 10} MB` : `${n} bytes`;
}

/** Counts bytes against the limit and checks the first bytes are a video container. */
class VideoGuard extends Transform {
  private seen = 0;
  private head = Buffer.alloc(0);
  private checked = false;
  type: string | null = null;

  constructor(
    private readonly label: string,
    private readonly maxBytes: number,
  ) {
    super();
  }

  private check(): Error | null {
    this.checked = true;
    const found = sniffAs(this.head, 'video');
    if (found) {
      this.type = found.type;
      return null;
    }
    const what =
      this.head.length === 0 ? 'it is empty' : `its content is ${sniff(this.head)?.type ?? 'not a video format'}`;
    return new ProviderError(`The result from ${this.label} is not a video (${what}).`);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) {
      return cb(
        new ProviderError(`The video from ${this.label} is larger than the ${sizeText(this.maxBytes)} allowed.`),
      );
    }
    if (!this.checked) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, SNIFF_BYTES - this.head.length)]);
      if (this.head.length >= SNIFF_BYTES) {
        const err = this.check();
        if (err) return cb(err);
      }
    }
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback): void {
    cb(this.checked ? null : this.check());
  }
}

/**
 * A failed download as a ProviderError (the generation's error, which the API key reads). Refusals by
 * the outbound policy say why; other failures say what happened only when every address connected to
 * was public (or the URL is the configured one): for a loopback or private address, a refused port, an
 * HTTP error or a page that is not a video read the same, so a result URL cannot map the network.
 */
function downloadFailure(
  { HTTPError, MaxRedirectsError, RequestError, TimeoutError }: Got,
  label: string,
  err: unknown,
  timeoutMs: number,
  maxRedirects: number,
  describe: boolean,
): unknown {
  const refused = outboundRefusal(err);
  if (refused)
    return new ProviderError(`${label} returned a result address this server does not fetch: ${refused.reason}.`);
  const cause = err instanceof RequestError && err.cause instanceof ProviderError ? err.cause : err;
  const prefix = `Could not download the finished video from ${label}`;
  if (!describe && (cause instanceof RequestError || cause instanceof ProviderError)) {
    // Temporary as before (a 5xx, a dropped connection), so retries still happen; only the text is one.
    const status = err instanceof HTTPError ? err.response.statusCode : 0;
    const temporary =
      cause instanceof ProviderError
        ? cause.retryable
        : !(err instanceof MaxRedirectsError) && (status === 0 || status === 429 || status >= 500);
    return new ProviderError(`${prefix}: no video could be fetched from the address it gave.`, temporary);
  }
  if (cause instanceof ProviderError) return cause;
  if (err instanceof HTTPError) {
    const status = err.response.statusCode;
    return new ProviderError(`${prefix}: HTTP ${status}.`, status === 429 || status >= 500);
  }
  if (err instanceof MaxRedirectsError) return new ProviderError(`${prefix}: more than ${maxRedirects} redirects.`);
  if (err instanceof TimeoutError) {
    return new ProviderError(
      `Downloading the finished video from ${label} took longer than ${timeoutMs / 1000} s.`,
      true,
    );
  }
  const code = (err as { code?: string })?.code;
  // Never the URL: result URLs are often signed.
  return new ProviderError(
    `${prefix} (${code && code !== 'ERR_GOT_REQUEST_ERROR' ? code : 'connection failed'}).`,
    true,
  );
}

/**
 * Streams a finished video into ctx.workDir with got: http(s) only (a data:video URI is decoded
 * instead), a size limit checked against Content-Length and while streaming, one time limit, the
 * first bytes checked to be a video container (the pipeline decodes it with ffprobe afterwards). No
 * credentials are sent: result URLs are public or pre-signed. Returns the file's path.
 */
export async function downloadResult(
  url: string,
  label: string,
  ctx: Pick<ProviderContext, 'signal' | 'workDir'>,
  opts: DownloadResultOptions = {},
): Promise<string> {
  const gotModule = await loadGot();
  const got = gotModule.default;
  const maxBytes = opts.maxBytes ?? GiB;
  const timeoutMs = opts.timeoutMs ?? 10 * 60_000;
  const maxRedirects = opts.maxRedirects ?? 5;
  const partial = path.join(ctx.workDir, 'result.download');
  const guard = new VideoGuard(label, maxBytes);
  const policy = opts.outbound === undefined ? new OutboundPolicy() : opts.outbound;
  const outbound = policy ? httpGuard(policy) : null;
  let fetched = false; // over HTTP, rather than decoded from a data URI
  try {
    const dataUri = /^data:(video\/[\w.+-]+);base64,(.*)$/is.exec(url);
    if (dataUri) {
      await pipeline([Buffer.from(dataUri[2], 'base64')], guard, fs.createWriteStream(partial, { mode: 0o600 }));
    } else {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new ProviderError(`${label} returned a result address that is not a URL.`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw new ProviderError(`${label} returned a result address that is not http(s).`);
      }
      fetched = true;
      const source = got.stream(parsed, {
        ...outbound?.got,
        timeout: { request: timeoutMs },
        maxRedirects,
        retry: { limit: 0 },
        signal: ctx.signal,
        headers: { 'user-agent': `AgentStudio/${APP_VERSION}`, accept: 'video/*, */*;q=0.5' },
      });
      source.once('response', (res: { headers: Record<string, string | string[] | undefined> }) => {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          source.destroy(
            new ProviderError(`The video from ${label} is larger than the ${sizeText(maxBytes)} allowed.`),
          );
        }
      });
      await pipeline(source, guard, fs.createWriteStream(partial, { mode: 0o600 }));
    }
  } catch (err) {
    fs.rmSync(partial, { force: true });
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    throw downloadFailure(
      gotModule,
      label,
      err,
      timeoutMs,
      maxRedirects,
      !fetched || !outbound || outbound.onlyPublic(),
    );
  }
  const file = path.join(ctx.workDir, `result${EXT[guard.type ?? ''] ?? '.mp4'}`);
  renameSyncRetrying(partial, file);
  return file;
}
