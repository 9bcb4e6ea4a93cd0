import path from 'node:path';
import { BrowserWindow, screen } from 'electron';
import type { SettingsStore } from './settings.js';

export interface MainWindowOptions {
  preloadPath: string;
  /** app://renderer/index.html, or the dev server URL. */
  url: string;
  settings: SettingsStore;
}

export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const saved = opts.settings.get().window;
  const visible =
    saved?.x !== undefined && saved.y !== undefined
      ? screen
          .getAllDisplays()
          .some(
            ({ workArea: a }) =>
              saved.x! >= a.x - 50 && saved.y! >= a.y - 50 && saved.x! < a.x + a.width && saved.y! < a.y + a.height,
          )
      : false;
  const win = new BrowserWindow({
    width: saved?.width ?? 1280,
    height: saved?.height ?? 820,
    ...(visible ? { x: saved!.x, y: saved!.y } : {}),
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Agent Studio',
    backgroundColor: '#f6f7f9',
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
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    const b = win.getNormalBounds();
    opts.settings.update({ window: { width: b.width, height: b.height, x: b.x, y: b.y } });
  });
  void win.loadURL(opts.url);
  return win;
}
