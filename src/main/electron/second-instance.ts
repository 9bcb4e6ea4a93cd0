// What a second launch of the app does. Electron's single-instance lock (index.ts, per data folder) keeps one app
// per data folder: the newer process quits at once, and the running one gets 'second-instance' (or, on macOS,
// 'activate' for a click on the Dock icon) and brings its window back; a second launch from a login entry
// (`--background`, desktop-shell.ts) brings nothing. Plain Node (no electron import), so tests run it as is.

/** What bringing a window back uses of it (Electron's BrowserWindow). */
export interface ShownWindow {
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

export interface BringBackState {
  /** The core runs (DesktopShell.start() was called); before that start() opens the window itself. */
  started: boolean;
  /** The main window, or null when it was closed (the app kept running in the tray). */
  window: ShownWindow | null;
  /** Opens a new main window. */
  open(): void;
}

/**
 * Brings the running instance's window in front of the person: opened again when it was closed to the tray,
 * restored when minimized, then shown and focused. Still starting: nothing (a second window would be one too many).
 */
export function bringBack(state: BringBackState): void {
  if (!state.started) return;
  const win = state.window;
  if (!win) return state.open();
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}
