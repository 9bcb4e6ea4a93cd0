import { describe, expect, it } from 'vitest';
import {
  SECRET_ON_CLIPBOARD_MS,
  secretCopier,
  type SecretClipboard,
} from '../../../src/main/core/desktop/secret-clipboard.js';

/** A clipboard in memory (the OS one in the app) and the timers the copier asked for, run when the test says. */
function harness(opts: { readFails?: boolean } = {}) {
  const board = { text: '', clears: 0 };
  const clipboard: SecretClipboard = {
    writeText: async (text) => void (board.text = text),
    readText: async () => {
      if (opts.readFails) throw new Error('the clipboard is held by another program');
      return board.text;
    },
    clear: () => {
      board.text = '';
      board.clears++;
    },
  };
  const timers: { fn: () => Promise<void>; ms: number }[] = [];
  const copy = secretCopier(clipboard, { schedule: (fn, ms) => void timers.push({ fn, ms }) });
  /** The delay has passed: runs every pending timer once. */
  const elapse = async () => {
    for (const t of timers.splice(0)) await t.fn();
  };
  return { board, timers, copy, elapse };
}

describe('a copied secret leaves the clipboard after 30 s', () => {
  it('is on the clipboard until the delay has passed, then cleared', async () => {
    const h = harness();
    await h.copy('s3cret-pw');
    expect(h.board.text).toBe('s3cret-pw');
    expect(h.timers.map((t) => t.ms)).toEqual([SECRET_ON_CLIPBOARD_MS]);
    expect(SECRET_ON_CLIPBOARD_MS).toBe(30_000);
    expect(h.board.clears).toBe(0); // nothing before the timer runs
    await h.elapse();
    expect(h.board.text).toBe('');
    expect(h.board.clears).toBe(1);
  });

  it('leaves alone what the person copied since', async () => {
    const h = harness();
    await h.copy('s3cret-pw');
    h.board.text = 'a note the person copied afterwards';
    await h.elapse();
    expect(h.board.text).toBe('a note the person copied afterwards');
    expect(h.board.clears).toBe(0);
  });

  it('two copies: the first one’s timer does not clear the second secret', async () => {
    const h = harness();
    await h.copy('first-secret');
    await h.copy('second-secret');
    const [first, second] = h.timers.splice(0);
    await first!.fn();
    expect(h.board.text).toBe('second-secret');
    await second!.fn();
    expect(h.board.text).toBe('');
  });

  it('a clipboard that cannot be read back keeps the secret (never clears blind) and throws nothing', async () => {
    const h = harness({ readFails: true });
    await h.copy('s3cret-pw');
    await expect(h.elapse()).resolves.toBeUndefined();
    expect(h.board.clears).toBe(0);
  });

  it('a refused write rejects and schedules nothing', async () => {
    const timers: unknown[] = [];
    const copy = secretCopier(
      {
        writeText: async () => {
          throw new Error('denied');
        },
        readText: async () => '',
        clear: () => {},
      },
      { schedule: (fn) => void timers.push(fn) },
    );
    await expect(copy('s3cret-pw')).rejects.toThrow('denied');
    expect(timers).toEqual([]);
  });
});
