// Bounded shutdown. Pure (no electron import): test/unit/electron/close-within.test.ts runs it with real promises.

/** How the core's close ended: finished, still running at the deadline, or failed with this error. */
export type CloseOutcome = 'closed' | 'timed-out' | Error;

/**
 * Waits for `closing` at most `ms`. Quitting must end even when a browser or a render does not stop;
 * the timer is cleared either way so it never holds the process open.
 */
export async function closeWithin(closing: Promise<unknown>, ms: number): Promise<CloseOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), ms);
  });
  try {
    return await Promise.race([
      closing.then(
        () => 'closed' as const,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
