/** Raised when the whole-login budget (timeoutMs) is spent. */
export class LoginTimeoutError extends Error {
  constructor(ms: number) {
    super(`login did not finish within ${ms} ms`);
    this.name = 'LoginTimeoutError';
  }
}

/** A time budget plus an optional caller AbortSignal, checked at every step of the login flow. */
export class Deadline {
  private endsAt: number;

  constructor(
    readonly totalMs: number,
    readonly signal?: AbortSignal,
  ) {
    this.endsAt = Date.now() + totalMs;
  }

  remaining(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  /**
   * Moves the end by `ms` (negative: back). Waiting for a code or a link has its own bound
   * (login.codeTimeoutMs) and does not use up the login's budget.
   */
  extend(ms: number): void {
    this.endsAt += ms;
  }

  /** A per-operation timeout that never exceeds the remaining budget (min 1 ms). */
  cap(ms: number): number {
    return Math.max(1, Math.min(ms, this.remaining()));
  }

  /** Throws the abort reason or a LoginTimeoutError when the flow must stop. */
  check(): void {
    if (this.signal?.aborted) throw this.signal.reason ?? new DOMException('aborted', 'AbortError');
    if (this.remaining() <= 0) throw new LoginTimeoutError(this.totalMs);
  }

  /** Polling interval wait; rejects as soon as the signal aborts. */
  async pause(ms: number): Promise<void> {
    this.check();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(done, Math.min(ms, this.remaining()));
      const signal = this.signal;
      function onAbort(): void {
        clearTimeout(timer);
        reject(signal?.reason ?? new DOMException('aborted', 'AbortError'));
      }
      function done(): void {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    this.check();
  }

  /**
   * Races `work` against the budget and the signal. On expiry rejects with LoginTimeoutError; the
   * caller then closes the page, which makes the abandoned work fail fast.
   */
  race<T>(work: Promise<T>): Promise<T> {
    work.catch(() => {});
    return new Promise<T>((resolve, reject) => {
      const signal = this.signal;
      // Re-armed when it fires early: the end may have moved (extend).
      const expire = (): void => {
        if (this.remaining() > 0) timer = setTimeout(expire, this.remaining());
        else finish(() => reject(new LoginTimeoutError(this.totalMs)));
      };
      let timer = setTimeout(expire, this.remaining());
      const onAbort = (): void => finish(() => reject(signal?.reason ?? new DOMException('aborted', 'AbortError')));
      const finish = (f: () => void): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        f();
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      work.then(
        (v) => finish(() => resolve(v)),
        (e) => finish(() => reject(e)),
      );
    });
  }
}
