import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/main/core/http/plugins/rate-limiter.js';

describe('RateLimiter', () => {
  it('allows a burst, refuses with a retry-after, refills over time, per id', () => {
    let now = 0;
    const rl = new RateLimiter(2, 3, () => now);
    expect([1, 2, 3].map(() => rl.take('a').allowed)).toEqual([true, true, true]);
    const refused = rl.take('a');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSec: 1 });
    expect(rl.take('b').allowed).toBe(true);
    now += 500; // one token at 2/s
    expect(rl.take('a').allowed).toBe(true);
    expect(rl.take('a').allowed).toBe(false);
  });
});
