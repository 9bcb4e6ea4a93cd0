import path from 'node:path';
import { BrowserWindow, nativeTheme, screen } from 'electron';
import type { SettingsStore } from './settings.js';
import { placeWindow } from './window-state.js';

export interface MainWindowOptions {
  preloadPath: string;
  /** app://renderer/index.html, or the dev server URL. */
  url: string;
  settings: SettingsStore;
}

export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const primary = screen.getPrimaryDisplay();
  const others = screen.getAllDisplays().filter((d) => d.id !== primary.id);
  const place = placeWindow(
    opts.settings.get().window,
    [primary, ...others].map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    width: place.width,
    height: place.height,
    ...(place.x !== undefined ? { x: place.x, y: place.y } : {}),
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Agent Studio',
    // The page's own background (styles.css / theme.css), so the window never flashes the other colour.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#0f1218' : '#f5f6f8',
    webPreferences: {
      preload: path.resolve(opts.preloadPath),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      // No 'auxclick' DOM event, so page script cannot act on middle-clicks; a middle-clicked link
      // still goes through the new-window and navigation rules of security.ts.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => {
    if (place.maximized) win.maximize();
    win.show();
  });
  // Normal bounds, so a maximized window comes back maximized and un-maximizes to its old size.
  win.on('close', () => {
    const b = win.getNormalBounds();
    opts.settings.update({
      window: { width: b.width, height: b.height, x: b.x, y: b.y, maximized: win.isMaximized() },
    });
  });
  void win.loadURL(opts.url);
  return win;
}
