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
}

/**
 * The tray (Windows, Linux) or menu-bar (macOS) icon: it keeps the app reachable while the window is
 * closed and the local API keeps serving agents. Linux desktops without a status-icon area (GNOME
 * without the AppIndicator extension) do not show it; launching the app again reopens the window.
 */
export function createAppTray(opts: AppTrayOptions): Tray {
  // macOS: a black-and-clear "template" image that the menu bar tints for light and dark mode; the
  // @2x file next to it is picked up for Retina displays.
  const file = process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png';
  const icon = nativeImage.createFromPath(path.join(opts.iconsDir, file));
  if (process.platform === 'darwin') icon.setTemplateImage(true);
  const tray = new Tray(icon);
  tray.setToolTip(opts.apiUrl ? `Agent Studio — API on ${opts.apiUrl}` : 'Agent Studio');

  const apiUrl = opts.apiUrl;
  const rebuild = () =>
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open Agent Studio', click: () => opts.openWindow() },
        apiUrl
          ? { label: `Copy API address (${apiUrl})`, click: () => clipboard.writeText(apiUrl) }
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
  rebuild();
  // Windows and most Linux trays: a click opens the window (the menu is on right-click). On macOS a
  // click opens the menu, as menu-bar items do.
  if (process.platform !== 'darwin') tray.on('click', () => opts.openWindow());
  return tray;
}
