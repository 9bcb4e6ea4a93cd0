import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRetryAfter } from '../../../src/main/core/net/retry-after.js';

/** The one Retry-After reader of the core: webhook retries and the video providers' HTTP client use it. */
describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads delay-seconds as milliseconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 7 ', now)).toBe(7000);
  });

  it('reads an HTTP date as the time left until it, 0 once it is past', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
  });

  it('takes the first value of a repeated header', () => {
    expect(parseRetryAfter(['5', '60'], now)).toBe(5000);
  });

  it('is null when the header is absent or unreadable', () => {
    for (const value of [undefined, '', '   ', [], 'soon', 'Thu, 99 Foo 2026']) {
      expect(parseRetryAfter(value, now), JSON.stringify(value)).toBeNull();
    }
  });

  it('counts from the current time when no `now` is given', () => {
    vi.useFakeTimers({ now });
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT')).toBe(60_000);
  });
});
