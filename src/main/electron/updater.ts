// The platform's install step for updates, with electron-updater. Everything else (the feed, versions, the policy,
// the download and its SHA-512 and size check, waiting for logins and renders) is core/desktop/update-service.ts in
// plain Node. Given a checked installer, electron-updater reads it from a loopback feed of that one file
// (update-local-feed.ts), checks it again (SHA-512; on Windows the installer's Authenticode publisher against the
// publisherName in app-update.yml; on macOS Squirrel.Mac checks the new app's code signature against this one's
// designated requirement when it installs; Linux has no signature: the SHA-512 from the feed is the check), then
// installs it on Restart (quitAndInstall) or, under the automatic policy, when the app quits.
import path from 'node:path';
import type { Logger } from '../core/logger.js';
import { UpdateService, type UpdateInstaller } from '../core/desktop/update-service.js';
import { serveStagedUpdate } from '../core/desktop/update-local-feed.js';
import type { UpdateSettings } from '../../shared/updates.schema.js';
import { APP_VERSION } from '../../shared/version.js';

/** The part of electron-updater's AppUpdater this uses (its `autoUpdater`). */
export interface AutoUpdaterPort {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowPrerelease: boolean;
  allowDowngrade: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
}

/**
 * electron-updater, loaded the first time an update is staged: a start with no update never pays for it (it pulls
 * fs-extra, js-yaml, semver). The name is a variable so the bundle keeps it an external require of node_modules.
 */
export async function loadAutoUpdater(): Promise<AutoUpdaterPort> {
  const name = 'electron-updater';
  const mod = (await import(name)) as { autoUpdater?: AutoUpdaterPort; default?: { autoUpdater: AutoUpdaterPort } };
  const updater = mod.autoUpdater ?? mod.default?.autoUpdater;
  if (!updater) throw new Error('electron-updater has no autoUpdater');
  return updater;
}

export function electronUpdaterInstaller(deps: {
  load: () => Promise<AutoUpdaterPort>;
  /** The policy now: automatic installs a staged update when the app quits. */
  installOnQuit: () => boolean;
  log: () => Logger;
}): UpdateInstaller & { follow(service: UpdateService): () => void } {
  let staged: AutoUpdaterPort | null = null;
  return {
    async stage(update) {
      const updater = await deps.load();
      const feed = await serveStagedUpdate(update);
      try {
        // The service chose the version (channel, semver); electron-updater takes the one the local feed names.
        updater.autoDownload = false;
        updater.allowPrerelease = true;
        updater.allowDowngrade = false;
        updater.autoInstallOnAppQuit = deps.installOnQuit();
        updater.setFeedURL({ provider: 'generic', url: feed.url });
        await updater.checkForUpdates();
        await updater.downloadUpdate();
        staged = updater;
      } finally {
        await feed.close();
      }
      deps.log().info({ version: update.info.version }, 'updates: staged with electron-updater');
    },
    install() {
      if (!staged) throw new Error('The update was not handed to the installer; download it again.');
      // Not silent (Windows shows the installer's progress), and the app starts again afterwards.
      staged.quitAndInstall(false, true);
    },
    /** A policy changed in Settings applies to an update already staged. */
    follow(service) {
      return service.onChange((view) => {
        if (staged) staged.autoInstallOnAppQuit = view.settings.policy === 'automatic';
      });
    },
  };
}

/** The app's one update service, from config.json `updates` of the core that runs now, started (checks unless off). */
export function startUpdates(deps: {
  dataDir: string;
  config: {
    policy: UpdateSettings['policy'];
    channel: UpdateSettings['channel'];
    feedUrl: string;
    checkEveryHours: number;
  };
  packaged: boolean;
  restartBlockedBy: () => string | null;
  log: () => Logger;
}): UpdateService {
  let service: UpdateService | null = null;
  const installer = electronUpdaterInstaller({
    load: async () => {
      // electron-updater installs only into an installed app; from source the person updates the checkout.
      if (!deps.packaged) throw new Error('This copy runs from source: update it with git pull, not the updater.');
      return loadAutoUpdater();
    },
    installOnQuit: () => service?.view().settings.policy === 'automatic',
    log: deps.log,
  });
  service = new UpdateService({
    currentVersion: APP_VERSION,
    dir: path.join(deps.dataDir, 'updates'),
    installation: {
      platform: process.platform,
      arch: process.arch,
      // electron-builder's AppImage runtime sets APPIMAGE; otherwise a Linux install is the .deb.
      linuxPackage: process.env.APPIMAGE ? 'AppImage' : 'deb',
    },
    settings: { policy: deps.config.policy, channel: deps.config.channel, feedUrl: deps.config.feedUrl },
    checkEveryMs: deps.config.checkEveryHours * 3_600_000,
    restartBlockedBy: deps.restartBlockedBy,
    installer,
    log: deps.log(),
  });
  installer.follow(service);
  service.start();
  return service;
}
