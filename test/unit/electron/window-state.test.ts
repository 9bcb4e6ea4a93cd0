// src/main/electron/window-state.ts: the main window reopens where it was, but never off screen.
import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZE, placeWindow, type Rect } from '../../../src/main/electron/window-state.js';

// A 1920x1080 laptop with a 25 px menu bar, and a 2560x1440 monitor to its right.
const LAPTOP: Rect = { x: 0, y: 25, width: 1920, height: 1055 };
const MONITOR: Rect = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('placeWindow', () => {
  it('first start: the default size, centred by the OS on the primary display', () => {
    expect(placeWindow(undefined, [LAPTOP])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
  });

  it('restores size, position and maximized state on a display that still exists', () => {
    const saved = { width: 1400, height: 900, x: 2200, y: 200, maximized: true };
    expect(placeWindow(saved, [LAPTOP, MONITOR])).toEqual(saved);
  });

  it('a window saved on a monitor that is gone opens on the primary display instead', () => {
    const saved = { width: 1400, height: 900, x: 2200, y: 200, maximized: false };
    expect(placeWindow(saved, [LAPTOP])).toEqual({ width: 1400, height: 900, maximized: false });
  });

  it('a title bar above the top of every display counts as unreachable', () => {
    const saved = { width: 1000, height: 700, x: 100, y: -300 };
    expect(placeWindow(saved, [LAPTOP, MONITOR])).toEqual({ width: 1000, height: 700, maximized: false });
  });

  it('only a sliver on screen is not enough; a grabbable part of the title bar is', () => {
    const sliver = { width: 1000, height: 700, x: 1900, y: 300 };
    expect(placeWindow(sliver, [LAPTOP]).x).toBeUndefined();
    const grabbable = { width: 1000, height: 700, x: 1700, y: 300 };
    // Reachable, and moved so the whole window is on the display.
    expect(placeWindow(grabbable, [LAPTOP])).toEqual({ width: 1000, height: 700, x: 920, y: 300, maximized: false });
  });

  it('a window larger than the display it reopens on (resolution lowered) is shrunk to fit', () => {
    const saved = { width: 2400, height: 1300, x: 10, y: 30 };
    expect(placeWindow(saved, [LAPTOP])).toEqual({ width: 1920, height: 1055, x: 0, y: 25, maximized: false });
    // No position to restore: clamped to the primary display all the same.
    expect(placeWindow({ width: 2400, height: 1300 }, [LAPTOP])).toEqual({
      width: 1920,
      height: 1055,
      maximized: false,
    });
  });
});
