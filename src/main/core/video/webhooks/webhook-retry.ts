/**
 * When a callback is tried again. The schedule (config `webhooks.retryScheduleSec`) lists the wait
 * before each attempt, counted from the previous failed one; the first entry is the first attempt
 * (0 = at once), so its length is the number of attempts. Waits get +-10 % jitter so receivers that
 * come back are not hit by every sender in the same second.
 *
 * Retry-After (429 and 503, in seconds or as an HTTP date) is honoured when it asks for more than the
 * schedule's next wait, up to 24 h; it never adds attempts. A Retry-After shorter than the schedule
 * does not speed it up.
 */
export const MAX_RETRY_AFTER_MS = 24 * 3600_000;
const JITTER = 0.1;

/** Milliseconds to wait before the attempt after `attempt` (1-based), or null when none is left. */
export function nextDelayMs(
  attempt: number,
  scheduleSec: readonly number[],
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  if (attempt >= scheduleSec.length) return null;
  const stepMs = scheduleSec[attempt] * 1000;
  const jittered = Math.round(stepMs * (1 - JITTER + 2 * JITTER * random()));
  const asked = retryAfterMs === null ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return Math.max(jittered, asked);
}
