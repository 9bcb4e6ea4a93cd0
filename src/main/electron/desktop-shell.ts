// The app's life around the core: one instance, the main window, the tray, the missing-tools notice,
// and a quit that waits for the core to close (bounded). index.ts builds the core and the IPC.
import path from 'node:path';
import { app, BrowserWindow, powerMonitor } from 'electron';
import type { CoreHost } from '../core/desktop/core-host.js';
import { shutdownSignals } from '../core/shutdown-signals.js';
import { resolveResourcesDir } from '../core/video/resources.js';
import { hasBackgroundArg } from '../core/desktop/autostart.js';
import { closeWithin } from './close-within.js';
import { showMissingToolsNotice } from './dialogs.js';
import type { RunningCore } from './lifecycle.js';
import { bringBack } from './second-instance.js';
import { createMainWindow } from './main-window.js';
import type { SettingsStore } from './settings.js';
import { findMissingTools, isNewNotice, withPackageManagerPath } from './system-tools.js';
import { createAppTray, type AppTray } from './tray.js';

/** The core closes its server, browsers and renders within this, or the app quits without it. */
export const CORE_CLOSE_TIMEOUT_MS = 10_000;

/**
 * AGENT_STUDIO_DATA_DIR moves the app's data folder, as it does for the headless server (tests give
 * each run its own). Must run before the single-instance lock, which is per data folder.
 */
export function useDataDirFromEnv(env: NodeJS.ProcessEnv = process.env): void {
  if (env.AGENT_STUDIO_DATA_DIR) app.setPath('userData', path.resolve(env.AGENT_STUDIO_DATA_DIR));
}

export class DesktopShell {
  private window: BrowserWindow | null = null;
  /** Made once for the app's life (tray.ts says why); a core restart only updates it. */
  private tray: AppTray | null = null;
  private host: CoreHost<RunningCore> | null = null;
  private settings: SettingsStore | null = null;
  /** 'closing' while the core closes after a quit request; 'closed' lets the next quit through. */
  private shutdown: 'no' | 'closing' | 'closed' = 'no';
  /** A second launch asked for the window while the core started: start() opens it even after a start at login. */
  private windowAsked = false;
  /** Waiting for the first window (a start at login opens none until the person asks). */
  private waitingForWindow: ((win: BrowserWindow) => void)[] = [];

  constructor(private readonly opts: { preloadPath: string; rendererUrl: string }) {}

  readonly mainWindow = (): BrowserWindow | null => this.window;

  /**
   * Call once this process holds the single-instance lock, before the app is ready. `appId` is the installer's
   * (electron-builder.yml appId): Windows files the app's notifications and taskbar entry under it.
   */
  install(appId: string): void {
    if (process.platform === 'win32') app.setAppUserModelId(appId);
    // A second launch (or a click on the Dock icon) brings this window back instead. One from a login entry (the
    // session starting an app that already runs) changes nothing. A launch while this one still starts gets the
    // window even after a start at login; 'activate' then does not count, as macOS may send it with the launch itself.
    app.on('second-instance', (_event, argv) => {
      if (hasBackgroundArg(argv)) return;
      if (!this.host) this.windowAsked = true;
      this.showWindow();
    });
    app.on('activate', () => this.showWindow());
    app.on('window-all-closed', () => {
      // With the tray the app and the agents' API keep running; the tray or a new launch reopens the window.
      if (this.tray && this.settings?.get().keepRunningInTray) return;
      if (process.platform !== 'darwin') app.quit();
    });
    app.on('before-quit', (event) => this.beforeQuit(event));
    // Through before-quit: the core closes (bounded) before the app exits.
    for (const signal of shutdownSignals(process.platform)) process.once(signal, () => app.quit());
    // Finder and the Dock start apps with launchd's short PATH, without Homebrew's ffmpeg.
    if (process.platform === 'darwin') process.env.PATH = withPackageManagerPath(process.env.PATH, 'darwin');
  }

  /**
   * Once the core runs (the agents' API already listening): the window, the tray, and the one-time notice about
   * missing programs. A start at login (`background`) opens no window: the tray, the Dock or a launch opens it.
   */
  start(host: CoreHost<RunningCore>, settings: SettingsStore, opts: { background: boolean }): void {
    this.host = host;
    this.settings = settings;
    if (!opts.background || this.windowAsked) this.openWindow();
    const running = host.current();
    this.showTray(running);
    // A restart (new port, new settings) may change the API address the tray shows and copies.
    host.onChange((next) => {
      if (this.shutdown === 'no') this.tray?.setApiUrl(next.info.serverUrl);
    });
    // Linux and macOS shut down without before-quit: delay the shutdown and quit the usual way (core closed).
    // (Electron passes an event whose preventDefault delays the shutdown; its typings declare no argument.)
    powerMonitor.on('shutdown', (...args: unknown[]) => {
      if (this.shutdown === 'closed') return;
      (args[0] as Electron.Event | undefined)?.preventDefault();
      app.quit();
    });
    this.noticeMissingTools(running, settings).catch((err: Error) =>
      running.core.log.warn({ err: err.message }, 'desktop: missing-tools check failed'),
    );
  }

  private showTray(running: RunningCore): void {
    const settings = this.settings;
    if (!settings) return;
    try {
      this.tray = createAppTray({
        iconsDir: path.join(resolveResourcesDir() ?? '', 'icons'),
        apiUrl: running.info.serverUrl,
        keepRunning: () => settings.get().keepRunningInTray,
        setKeepRunning: (on) => settings.update({ keepRunningInTray: on }),
        openWindow: () => this.showWindow(),
        quit: () => app.quit(),
        copyFailed: (err) => this.host?.current().core.log.warn({ err: err.message }, 'desktop: copy failed'),
      });
    } catch (err) {
      // No tray: closing the window quits as it would with the setting off.
      running.core.log.warn({ err: (err as Error).message }, 'desktop: no tray icon');
    }
  }

  showWindow(): void {
    bringBack({ started: this.host !== null, window: this.window, open: () => this.openWindow() });
  }

  private openWindow(): void {
    if (!this.settings) return;
    const win = createMainWindow({
      preloadPath: this.opts.preloadPath,
      url: this.opts.rendererUrl,
      settings: this.settings,
    });
    // Windows logoff or shutdown ends the process without before-quit: close the core while there is time. Windows
    // tells only windows, so with the window closed to the tray the app ends without this (docs/desktop-app.md#quit).
    win.on('session-end', () => this.closeCoreThenQuit());
    win.on('closed', () => {
      if (this.window === win) this.window = null;
    });
    this.window = win;
    for (const resolve of this.waitingForWindow.splice(0)) resolve(win);
  }

  private beforeQuit(event: Electron.Event): void {
    if (this.shutdown === 'closed' || !this.host) return;
    event.preventDefault();
    this.closeCoreThenQuit();
  }

  /** Once: hides the app, closes the core (bounded), then lets the quit through. */
  private closeCoreThenQuit(): void {
    if (this.shutdown !== 'no' || !this.host) return;
    this.shutdown = 'closing';
    // Look gone at once; the windows close (and save their state) when the quit goes through.
    this.tray?.destroy();
    this.tray = null;
    for (const win of BrowserWindow.getAllWindows()) win.hide();
    // Close the server and dispose the core before exiting: in-flight requests finish, the SQLite WAL is
    // checkpointed and no browser process outlives the app. A stuck close does not keep the app alive.
    void closeWithin(this.host.close(), CORE_CLOSE_TIMEOUT_MS).then((outcome) => {
      if (outcome === 'timed-out')
        console.error(`Agent Studio: the core did not close within ${CORE_CLOSE_TIMEOUT_MS} ms; quitting anyway`);
      else if (outcome instanceof Error) console.error(`Agent Studio: closing the core failed: ${outcome.message}`);
      this.shutdown = 'closed';
      app.quit();
    });
  }

  private async noticeMissingTools(running: RunningCore, settings: SettingsStore): Promise<void> {
    const missing = findMissingTools({
      browser: running.core.config.browser,
      env: process.env,
      platform: process.platform,
    });
    const show = isNewNotice(missing, settings.get().missingToolsNoticed);
    // After a start at login the notice waits for the window: no dialog of its own while the session starts, and
    // not counted as shown before the person has seen it.
    const win =
      show && !this.window
        ? await new Promise<BrowserWindow>((resolve) => this.waitingForWindow.push(resolve))
        : this.window;
    // Remember what is missing now: a tool installed later and lost again is noticed again.
    settings.update({ missingToolsNoticed: missing.map((tool) => tool.id) });
    if (!show) return;
    // Over the window once it is visible: a dialog parented to a hidden window can open behind it.
    if (win && !win.isVisible())
      await new Promise<void>((resolve) => {
        win.once('show', () => resolve());
        win.once('closed', () => resolve());
      });
    await showMissingToolsNotice(win && !win.isDestroyed() ? win : null, missing);
  }
}
