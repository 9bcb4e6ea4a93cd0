// src/main/electron/close-within.ts: quitting waits for the core's close, but not forever.
import { describe, expect, it } from 'vitest';
import { closeWithin } from '../../../src/main/electron/close-within.js';

describe('closeWithin', () => {
  it('is "closed" when the close finishes in time', async () => {
    let finish!: () => void;
    const closing = new Promise<void>((resolve) => (finish = resolve));
    const outcome = closeWithin(closing, 60_000);
    finish();
    expect(await outcome).toBe('closed');
  });

  it('is "timed-out" when the close is still running at the deadline', async () => {
    const never = new Promise<void>(() => undefined);
    const started = Date.now();
    expect(await closeWithin(never, 50)).toBe('timed-out');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('returns the error of a failed close instead of throwing', async () => {
    const outcome = await closeWithin(Promise.reject(new Error('database is locked')), 60_000);
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toBe('database is locked');
    expect(await closeWithin(Promise.reject('plain string'), 60_000)).toEqual(new Error('plain string'));
  });

  it('leaves no timer behind that would keep the process alive', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await closeWithin(Promise.resolve(), 60_000);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
  });
});
