// src/main/electron/second-instance.ts: a second launch of the app (Electron's single-instance lock sends the running
// instance 'second-instance') brings the running instance's window back instead of starting another app.
import { describe, expect, it } from 'vitest';
import { bringBack, type ShownWindow } from '../../../src/main/electron/second-instance.js';

/** A window that records what was done to it, in order. */
function fakeWindow(minimized: boolean): ShownWindow & { calls: string[] } {
  const calls: string[] = [];
  let isMin = minimized;
  return {
    calls,
    isMinimized: () => isMin,
    restore: () => {
      calls.push('restore');
      isMin = false;
    },
    show: () => void calls.push('show'),
    focus: () => void calls.push('focus'),
  };
}

describe('a second launch brings the running window back', () => {
  it('a minimized window is restored, shown and focused', () => {
    const win = fakeWindow(true);
    bringBack({ started: true, window: win, open: () => win.calls.push('open') });
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
  });

  it('a window behind others is shown and focused, not restored (restore would un-maximize it)', () => {
    const win = fakeWindow(false);
    bringBack({ started: true, window: win, open: () => win.calls.push('open') });
    expect(win.calls).toEqual(['show', 'focus']);
  });

  it('a window closed to the tray is opened again', () => {
    const opened: string[] = [];
    bringBack({ started: true, window: null, open: () => opened.push('open') });
    expect(opened).toEqual(['open']);
  });

  it('while the app is still starting nothing opens: start() opens the one window', () => {
    const opened: string[] = [];
    bringBack({ started: false, window: null, open: () => opened.push('open') });
    expect(opened).toEqual([]);
  });
});
