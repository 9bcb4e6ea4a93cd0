/**
 * Fresh logins that are running, by the id their caller gave (`X-Login-Id`), so a person can
 * cancel one from the desktop window (POST /api/login/:loginId/cancel). Scoped to the organization.
 */
export class RunningLogins {
  private readonly running = new Map<string, AbortController>();

  /** Registers a login; the returned signal aborts when it is cancelled. Call the release function at its end. */
  start(orgId: string, loginId: string): { signal: AbortSignal; release: () => void } {
    const key = `${orgId}\n${loginId}`;
    const controller = new AbortController();
    this.running.set(key, controller);
    return {
      signal: controller.signal,
      release: () => {
        if (this.running.get(key) === controller) this.running.delete(key);
      },
    };
  }

  /** How many run now, in every organization (a restart of the app for an update waits for them). */
  get size(): number {
    return this.running.size;
  }

  /** True when a running login was cancelled. */
  cancel(orgId: string, loginId: string): boolean {
    const controller = this.running.get(`${orgId}\n${loginId}`);
    if (!controller) return false;
    controller.abort(new LoginCancelledError());
    return true;
  }
}

export class LoginCancelledError extends Error {
  constructor() {
    super('The login was cancelled');
    this.name = 'LoginCancelledError';
  }
}
