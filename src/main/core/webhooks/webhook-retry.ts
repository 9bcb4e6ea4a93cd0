import type { JobOutcome } from '../jobs/job-types.js';
import type { SendResult } from './webhook-sender.js';

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

/** After an attempt: the delivery's new state. */
export type AttemptVerdict =
  { status: 'pending'; nextAttemptAt: number } | { status: 'delivered' } | { status: 'failed'; error: string };

/**
 * What one attempt's result means for its delivery and for the job that made it (the same rule for every
 * kind of delivery): 2xx delivered; a retryable failure waits for the schedule's next step (or a longer
 * Retry-After) until the schedule runs out; anything else fails at once.
 */
export function judgeAttempt(
  send: Pick<SendResult, 'outcome' | 'error' | 'retryAfterMs'>,
  attempt: number,
  scheduleSec: readonly number[],
): { verdict: AttemptVerdict; outcome: JobOutcome } {
  if (send.outcome === 'delivered') return { verdict: { status: 'delivered' }, outcome: { status: 'done' } };
  const delay = send.outcome === 'retry' ? nextDelayMs(attempt, scheduleSec, send.retryAfterMs) : null;
  if (delay !== null)
    return {
      verdict: { status: 'pending', nextAttemptAt: Date.now() + delay },
      outcome: { status: 'retry', runAfterMs: delay, error: send.error ?? undefined },
    };
  const error =
    send.outcome === 'retry' ? `gave up after ${attempt} attempts; last: ${send.error}` : (send.error ?? 'failed');
  return { verdict: { status: 'failed', error }, outcome: { status: 'failed', error } };
}
