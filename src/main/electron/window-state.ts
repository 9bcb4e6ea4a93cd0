// Where the main window reopens. Pure (no electron import): main-window.ts passes the displays' work
// areas in, and test/unit/electron/window-state.test.ts checks the rules with made-up screen layouts.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SavedWindowState {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized?: boolean;
}

export interface WindowPlacement {
  width: number;
  height: number;
  /** Absent: let the OS centre the window on the primary display. */
  x?: number;
  y?: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 820 };
/** How much of the title bar must lie on a display for the window to count as reachable there. */
const GRAB_WIDTH = 120;
const GRAB_HEIGHT = 32;

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/**
 * The saved size and position when the window's title bar would be on one of the current displays
 * (a monitor unplugged since, or a resolution change, must not open the window off screen). The size
 * is clamped to that display's work area; with no reachable position the window opens centred on the
 * primary display, clamped to it. `workAreas[0]` is the primary display.
 */
export function placeWindow(saved: SavedWindowState | undefined, workAreas: readonly Rect[]): WindowPlacement {
  const width = saved?.width ?? DEFAULT_WINDOW_SIZE.width;
  const height = saved?.height ?? DEFAULT_WINDOW_SIZE.height;
  const maximized = saved?.maximized ?? false;
  const fit = (area: Rect | undefined) => ({
    width: area ? Math.min(width, area.width) : width,
    height: area ? Math.min(height, area.height) : height,
  });
  if (saved?.x === undefined || saved.y === undefined) return { ...fit(workAreas[0]), maximized };
  const titleBar: Rect = { x: saved.x, y: saved.y, width, height: GRAB_HEIGHT };
  const area = workAreas.find((a) => {
    const o = overlap(titleBar, a);
    return o.width >= Math.min(GRAB_WIDTH, width) && o.height >= GRAB_HEIGHT;
  });
  if (!area) return { ...fit(workAreas[0]), maximized };
  const size = fit(area);
  // Keep the whole window inside the display it is on once the size is clamped.
  const x = Math.min(Math.max(saved.x, area.x), area.x + area.width - size.width);
  const y = Math.min(Math.max(saved.y, area.y), area.y + area.height - size.height);
  return { ...size, x, y, maximized };
}
