import path from 'node:path';
import { clipboard, Menu, nativeImage, Tray } from 'electron';

export interface AppTrayOptions {
  /** `resources/icons` (shipped as extraResources). */
  iconsDir: string;
  /** The agents' API address, or null when it is not listening. */
  apiUrl: string | null;
  keepRunning(): boolean;
  setKeepRunning(on: boolean): void;
  openWindow(): void;
  quit(): void;
  /** A copy to the clipboard failed (the OS refused the write); nothing else can tell the person. */
  copyFailed(err: Error): void;
}

/** The one tray icon of the app's life; a core restart only changes the address it shows. */
export interface AppTray {
  /** Shows (and copies) another API address after a core restart, without making a new icon. */
  setApiUrl(apiUrl: string | null): void;
  destroy(): void;
}

/**
 * The tray (Windows, Linux) or menu-bar (macOS) icon: it keeps the app reachable while the window is
 * closed and the local API keeps serving agents. Linux desktops without a status-icon area (GNOME
 * without the AppIndicator extension) do not show it; launching the app again reopens the window.
 * Made once: on GNOME/KDE Wayland only the first icon of a process registers over the StatusNotifier
 * protocol, so a tray destroyed and made again disappears there.
 */
export function createAppTray(opts: AppTrayOptions): AppTray {
  // macOS: a black-and-clear "template" image that the menu bar tints for light and dark mode; the
  // @2x file next to it is picked up for Retina displays.
  const file = process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png';
  const icon = nativeImage.createFromPath(path.join(opts.iconsDir, file));
  if (process.platform === 'darwin') icon.setTemplateImage(true);
  const tray = new Tray(icon);
  let apiUrl = opts.apiUrl;

  const copy = (text: string) => clipboard.writeText(text).catch((err: Error) => opts.copyFailed(err));
  const rebuild = () => {
    const url = apiUrl;
    tray.setToolTip(url ? `Agent Studio — API on ${url}` : 'Agent Studio');
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open Agent Studio', click: () => opts.openWindow() },
        url
          ? { label: `Copy API address (${url})`, click: () => void copy(url) }
          : { label: 'API not running', enabled: false },
        { type: 'separator' },
        {
          label: 'Keep running when the window is closed',
          type: 'checkbox',
          checked: opts.keepRunning(),
          click: (item) => {
            opts.setKeepRunning(item.checked);
            rebuild();
          },
        },
        { type: 'separator' },
        { label: 'Quit Agent Studio', click: () => opts.quit() },
      ]),
    );
  };
  rebuild();
  // Windows and most Linux trays: a click opens the window (the menu is on right-click). On macOS a
  // click opens the menu, as menu-bar items do.
  if (process.platform !== 'darwin') tray.on('click', () => opts.openWindow());
  return {
    setApiUrl(next) {
      if (tray.isDestroyed()) return;
      apiUrl = next;
      rebuild();
    },
    destroy: () => {
      if (!tray.isDestroyed()) tray.destroy();
    },
  };
}
