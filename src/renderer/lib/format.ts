const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return dateTime.format(new Date(ms));
}

const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const timeSeconds = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/** Date and time to the second: rows made in the same minute still read apart. */
export function formatDateSeconds(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return dateTimeSeconds.format(new Date(ms));
}

/** The time of day to the second ("14:03:27"). */
export function formatTimeSeconds(ms: number): string {
  return timeSeconds.format(new Date(ms));
}

/** "in 3 h", "2 d ago"... for expiry columns. */
export function formatRelative(ms: number | null | undefined, now = Date.now()): string {
  if (ms === null || ms === undefined) return '—';
  const diff = ms - now;
  const abs = Math.abs(diff);
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
  ];
  let text = 'less than a minute';
  for (const [size, unit] of units) {
    if (abs >= size) {
      text = `${Math.round(abs / size)} ${unit}`;
      break;
    }
  }
  return diff >= 0 ? `in ${text}` : `${text} ago`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

export function formatSeconds(sec: number | null | undefined): string {
  if (sec === null || sec === undefined) return '—';
  if (sec < 60) return `${Math.round(sec * 10) / 10} s`;
  const min = Math.floor(sec / 60);
  const rest = Math.round(sec % 60);
  return rest ? `${min} min ${rest} s` : `${min} min`;
}

/** Cookie expiry (Unix seconds, -1 for a session cookie). */
export function formatCookieExpiry(expires: number): string {
  if (expires < 0) return 'Session';
  return formatDate(expires * 1000);
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export const CATEGORY_LABELS: Record<string, string> = {
  'text-to-video': 'Text to video',
  'image-to-video': 'Image to video',
  'ingredients-to-video': 'Ingredients to video',
  'video-to-video': 'Video to video',
  'audio-to-video': 'Audio to video',
};
export const categoryLabel = (c: string) => CATEGORY_LABELS[c] ?? c;
