/** Token buckets keyed by API key id (or a shared bucket for unauthenticated requests). */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    /** tokens added per second */
    private readonly ratePerSec: number,
    /** bucket size */
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one token. `retryAfterSec` is how long until one is available when refused. */
  take(id: string): { allowed: boolean; remaining: number; resetSec: number; retryAfterSec: number } {
    const t = this.now();
    const b = this.buckets.get(id) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.ratePerSec);
    b.at = t;
    this.buckets.set(id, b);
    const resetSec = Math.ceil((this.burst - b.tokens) / this.ratePerSec);
    if (b.tokens < 1) {
      return {
        allowed: false,
        remaining: 0,
        resetSec,
        retryAfterSec: Math.max(1, Math.ceil((1 - b.tokens) / this.ratePerSec)),
      };
    }
    b.tokens -= 1;
    return {
      allowed: true,
      remaining: Math.floor(b.tokens),
      resetSec: Math.ceil((this.burst - b.tokens) / this.ratePerSec),
      retryAfterSec: 0,
    };
  }
}
