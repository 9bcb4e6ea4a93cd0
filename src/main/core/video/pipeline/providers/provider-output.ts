/** Reading what hosted models return: where the video is, and how far along a job is from its logs. */

const VIDEO_EXT = /\.(mp4|webm|mov|mkv|m4v)$/i;

function isUrl(s: string): boolean {
  return /^https?:\/\/\S+$/i.test(s) || /^data:video\/[\w.+-]+;base64,/i.test(s);
}

/**
 * The video URL in a model's output, whatever its shape: fal's `{ video: { url } }` or
 * `{ videos: [{ url }] }`, Replicate's URL string or list of URLs, or any object carrying a URL.
 * Prefers (in order) a `video`/`videos` field, a file whose content_type is video/*, a URL whose path
 * ends like a video, then any URL. null when there is none.
 */
export function findVideoUrl(output: unknown): string | null {
  let best: { url: string; score: number } | null = null;
  const offer = (url: string, score: number) => {
    if (!best || score > best.score) best = { url, score };
  };
  const pathOf = (url: string) => {
    try {
      return new URL(url).pathname;
    } catch {
      return '';
    }
  };
  const visit = (v: unknown, underVideoKey: boolean, depth: number): void => {
    if (depth > 8) return;
    if (typeof v === 'string') {
      if (!isUrl(v)) return;
      const looksVideo = v.startsWith('data:video/') || VIDEO_EXT.test(pathOf(v));
      offer(v, (underVideoKey ? 4 : 0) + (looksVideo ? 2 : 1));
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) visit(x, underVideoKey, depth + 1);
      return;
    }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (typeof o.url === 'string' && isUrl(o.url)) {
      const typed = typeof o.content_type === 'string' && o.content_type.startsWith('video/');
      const looksVideo = typed || VIDEO_EXT.test(pathOf(o.url)) || o.url.startsWith('data:video/');
      offer(o.url, (underVideoKey ? 4 : 0) + (typed ? 3 : looksVideo ? 2 : 1));
    }
    for (const [k, x] of Object.entries(o)) {
      if (k === 'url') continue;
      visit(x, underVideoKey || /^videos?$/i.test(k), depth + 1);
    }
  };
  visit(output, false, 0);
  return (best as { url: string } | null)?.url ?? null;
}

/**
 * Progress (0-100) from a model's log lines, newest first: a tqdm bar (` 45%|████▌ | 9/20`), a plain
 * percentage, or `step 9/20` / `9 of 20`. undefined when no line says.
 */
export function progressFromLogs(lines: readonly string[]): number | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    // tqdm redraws with \r: the last segment of a line is the newest.
    const parts = lines[i].split('\r');
    const line = parts[parts.length - 1] || lines[i];
    const pct = /(\d{1,3}(?:\.\d+)?)\s?%/.exec(line);
    if (pct && Number(pct[1]) <= 100) return Number(pct[1]);
    const steps = /\b(?:step|frame|iteration)s?\s*(\d+)\s*(?:\/|of)\s*(\d+)/i.exec(line);
    if (steps && Number(steps[2]) > 0) return Math.min(100, (Number(steps[1]) / Number(steps[2])) * 100);
  }
  return undefined;
}
