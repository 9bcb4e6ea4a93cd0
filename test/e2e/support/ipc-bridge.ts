// Stand-in for the preload and the Electron IPC layer around a plain Chromium page. The page gets what
// src/preload/index.ts exposes (window.agentStudio: invoke over the contract's channels, on for its
// events), and every call is answered in Node by the app's own IPC dispatcher
// (src/main/core/desktop/ipc-dispatcher.ts) over the given CoreApi: in process like the app, or over
// real HTTP. Core bus events reach the page through the app's own forwarder. No second channel list:
// names, schemas and routes all come from src/shared/ipc-contract.ts. The OS parts (file dialogs, the
// clipboard, the file manager, the path of a dropped file) are stand-ins the test controls and reads.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Core } from '../../../src/main/core/create-core.js';
import { forwardCoreEvents, validatedSender } from '../../../src/main/core/desktop/desktop-events.js';
import type { CoreApi } from '../../../src/main/core/http/in-process-api.js';
import { createIpcDispatcher } from '../../../src/main/core/desktop/ipc-dispatcher.js';
import { fail } from '../../../src/main/core/desktop/http-channel.js';
import type { LocalHandlers } from '../../../src/main/core/desktop/ipc-dispatcher.js';
import { adminChannels } from '../../../src/main/core/desktop/admin-channels.js';
import { apiReferenceChannel } from '../../../src/main/core/desktop/api-reference-channel.js';
import { autostartChannels, type AutostartOs } from '../../../src/main/core/desktop/autostart-channels.js';
import { backupChannels } from '../../../src/main/core/desktop/backup-channels.js';
import { crashReportsChannels } from '../../../src/main/core/desktop/crash-reports.js';
import { updatesChannels } from '../../../src/main/core/desktop/update-channels.js';
import { UpdateService } from '../../../src/main/core/desktop/update-service.js';
import { profilesChannels } from '../../../src/main/core/desktop/profiles-channels.js';
import { browserProfiles } from '../../../src/main/core/login/profiles/index.js';
import { PickedFiles } from '../../../src/main/core/desktop/picked-files.js';
import { resultsChannels } from '../../../src/main/core/desktop/results-channels.js';
import { settingsChannels, type ThemeStore } from '../../../src/main/core/desktop/settings-channels.js';
import { vaultChannels } from '../../../src/main/core/desktop/vault-channels.js';
import { studioChannels } from '../../../src/main/core/desktop/studio-channels.js';
import {
  CHANNEL_NAMES,
  EVENT_NAMES,
  IPC_CONTRACT,
  isPageChannel,
  type AppInfo,
  type IpcEventName,
  type UploadKind,
} from '../../../src/shared/ipc-contract.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { memoryThemeStore, staticHost, type TestHost } from './desktop-host.js';

export interface IpcBridgeOptions {
  api: CoreApi;
  core: Core;
  /** The organization whose bus events the page receives (the key's). */
  orgId: string;
  info: AppInfo;
  /** The "OS file dialog": a path, or null when the person cancels. */
  chooseFile(kind: UploadKind): string | null;
  /** The "OS save dialog": a path to write, or null when the person cancels (default: cancel). */
  chooseSavePath?(defaultName: string): string | null;
  /** The "OS open dialog" for a file of these extensions, and the folder dialog: a path, or null (default: cancel). */
  chooseOpenPath?(extensions: string[]): string | null;
  chooseFolder?(title: string): string | null;
  /** The settings channels' host (default: the given core for good) and theme store (default: in memory). */
  host?: TestHost;
  theme?: ThemeStore;
  /** The id of the key `api` presents (keys:list marks it as the window's own). */
  keyId?: string | null;
  /**
   * Where Settings → Start-up writes (default: an installed Linux app's XDG autostart entry under a temp
   * XDG_CONFIG_HOME, on any OS: the one mechanism that is plain files).
   */
  autostart?: AutostartOs;
  /** Settings → Updates' service (default: one with updates off, which never makes a request). */
  updates?: UpdateService;
  /** Replaces main-only handlers (e.g. app:apiStatus for an address where nothing listens). */
  local?: Partial<LocalHandlers>;
}

export interface IpcBridge {
  /** Every event sent to the page, in order. */
  sent: { event: IpcEventName; payload: unknown }[];
  /** What the page put on the "clipboard", in order. */
  copied: string[];
  /** Secrets of saved logins main put on the "clipboard" (credentials:copySecret), in order; never seen by the page. */
  copiedSecrets: string[];
  /** Files the page asked the "file manager" to show. */
  shownInFolder: string[];
  /** Data folders the app was asked to start again on (backup:openRestored), in order. */
  relaunched: string[];
  /** Local pages the "OS browser" was asked to open (app:openApiReference, main's own handler), in order. */
  openedPages: string[];
  /** Folders the "file manager" was asked to open (crashes:openFolder), in order. */
  openedFolders: string[];
}

/** Runs in the page before its scripts: the preload's shape over two test bindings. Self-contained. */
function installPreloadShim(names: { channels: string[]; events: string[] }): void {
  const w = window as unknown as Record<string, unknown>;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: { channel: string; args: unknown }[] = [];
  w.__bridgeCalls = calls;
  w.__ipcDeliver = (event: string, payload: unknown) => listeners.get(event)?.forEach((l) => l(payload));
  // Like the preload: one named function per page channel, no generic invoke.
  const channels = Object.freeze(
    Object.fromEntries(
      names.channels.map((channel) => [
        channel,
        (args?: unknown): Promise<unknown> => {
          calls.push({ channel, args });
          return (w.__ipcInvoke as (c: string, a: unknown) => Promise<unknown>)(channel, args);
        },
      ]),
    ),
  );
  const bridge = {
    channels,
    // The preload finds a dropped file's path on disk (none for a pasted or web image). Here a test marks
    // the Files that stand for files from a folder (window.__diskFiles), and their bytes are written to disk.
    async pickDroppedFile(file: File): Promise<unknown> {
      const onDisk = w.__diskFiles as WeakSet<File> | undefined;
      if (!onDisk?.has(file)) return { ok: true, value: null };
      const bytes = new Uint8Array(await file.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return (w.__ipcDropFile as (n: string, b: string) => Promise<unknown>)(file.name, btoa(binary));
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (!names.events.includes(event)) throw new Error(`Unknown app event "${event}"`);
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
  };
  Object.defineProperty(window, 'agentStudio', { value: Object.freeze(bridge) });
}

/** An update service with updates off: Settings → Updates shows "Updates are off" and nothing is fetched. */
function updatesOff(core: Core, dir: string): UpdateService {
  return new UpdateService({
    currentVersion: '0.0.0-test',
    dir,
    installation: { platform: 'linux', arch: 'x64', linuxPackage: 'deb' },
    settings: { policy: 'off', channel: core.config.updates.channel, feedUrl: core.config.updates.feedUrl },
    checkEveryMs: 3_600_000,
    restartBlockedBy: () => null,
    installer: {
      stage: async () => undefined,
      install: () => {
        throw new Error('the e2e bridge installs nothing');
      },
    },
    log: core.log,
  });
}

/** Installs the bridge on a page (before it navigates); it stops forwarding when the page's context closes. */
export async function installIpcBridge(page: Page, opts: IpcBridgeOptions): Promise<IpcBridge> {
  const sent: IpcBridge['sent'] = [];
  const emit = validatedSender((event, payload) => {
    sent.push({ event, payload });
    void page
      .evaluate(
        ([e, p]) => (window as unknown as { __ipcDeliver: (e: string, p: unknown) => void }).__ipcDeliver(e, p),
        [event, payload] as const,
      )
      .catch(() => undefined);
  });
  const files = new PickedFiles();
  const copied: string[] = [];
  const copiedSecrets: string[] = [];
  const shownInFolder: string[] = [];
  const relaunched: string[] = [];
  const openedPages: string[] = [];
  const openedFolders: string[] = [];
  const dropDir = tempDir('agent-studio-dropped-');
  const pasteDir = tempDir('agent-studio-pasted-');
  const xdgConfigDir = tempDir('agent-studio-xdg-config-');
  // Main-only channels a test here does not exercise answer a clear failure instead of hanging.
  const unanswered = Object.fromEntries(
    CHANNEL_NAMES.filter((c) => IPC_CONTRACT[c].kind === 'local').map((c) => [
      c,
      async () => fail('not_in_test_bridge', `${c} is not answered by the e2e bridge.`),
    ]),
  ) as unknown as LocalHandlers;
  const host =
    opts.host ??
    staticHost({ core: opts.core, api: opts.api, orgId: opts.orgId, keyId: opts.keyId ?? null, info: opts.info });
  const dispatch = createIpcDispatcher({
    api: opts.api,
    files,
    emit,
    local: {
      ...unanswered,
      'app:getInfo': async () => ({ ok: true, value: opts.info }),
      // Never opens a browser from a test; the renderer only needs the answer.
      'app:openExternal': async () => ({ ok: true, value: { opened: false } }),
      'uploads:pickFile': async (args) => files.pick(opts.chooseFile(args?.kind ?? 'any')),
      'app:copyText': async ({ text }) => {
        copied.push(text);
        return { ok: true, value: { copied: true } };
      },
      ...resultsChannels({
        api: opts.api,
        files,
        blobs: () => opts.core.video.blobs,
        pasteDir,
        os: {
          chooseSavePath: async ({ defaultName }) => opts.chooseSavePath?.(defaultName) ?? null,
          showItemInFolder: (file) => void shownInFolder.push(file),
        },
      }),
      'app:openDataFolder': async () => ({ ok: true, value: { opened: false } }),
      ...apiReferenceChannel({ host, open: async (url) => openedPages.push(url) > 0 }),
      ...adminChannels(host),
      ...vaultChannels({
        host,
        copySecret: (text) => void copiedSecrets.push(text),
        chooseSavePath: async ({ defaultName }) => opts.chooseSavePath?.(defaultName) ?? null,
      }),
      ...profilesChannels({ host, profiles: browserProfiles }),
      ...settingsChannels({ host, theme: opts.theme ?? memoryThemeStore() }),
      ...studioChannels(host),
      ...backupChannels({
        host,
        os: {
          chooseSavePath: async ({ defaultName }) => opts.chooseSavePath?.(defaultName) ?? null,
          chooseOpenPath: async ({ extensions }) => opts.chooseOpenPath?.(extensions) ?? null,
          chooseFolder: async ({ title }) => opts.chooseFolder?.(title) ?? null,
          relaunchWith: async (dataDir) => void relaunched.push(dataDir),
        },
      }),
      ...autostartChannels({
        os: opts.autostart ?? {
          platform: 'linux',
          env: { XDG_CONFIG_HOME: xdgConfigDir },
          execPath: '/opt/Agent Studio/agent-studio',
          packaged: true,
          home: xdgConfigDir,
          loginItems: null,
        },
        log: () => opts.core.log,
      }),
      ...updatesChannels({
        updates: opts.updates ?? updatesOff(opts.core, xdgConfigDir),
        dataDir: () => host.current().core.config.dataDir,
      }),
      ...crashReportsChannels({
        dataDir: () => host.current().core.config.dataDir,
        openFolder: async (folder) => {
          openedFolders.push(folder);
          return '';
        },
      }),
      ...opts.local,
    },
  });
  const stop = forwardCoreEvents(opts.core.events, opts.orgId, emit);
  page.context().once('close', () => {
    stop();
    for (const dir of [dropDir, pasteDir, xdgConfigDir]) fs.rmSync(dir, { recursive: true, force: true });
  });
  await page.exposeBinding('__ipcInvoke', (_source, channel: unknown, args: unknown) => dispatch(channel, args));
  await page.exposeBinding('__ipcDropFile', async (_source, name: string, base64: string) => {
    const dir = fs.mkdtempSync(path.join(dropDir, 'drop-'));
    const file = path.join(dir, path.basename(name));
    fs.writeFileSync(file, Buffer.from(base64, 'base64'));
    return dispatch('uploads:pickDropped', { path: file });
  });
  await page.addInitScript(installPreloadShim, {
    channels: CHANNEL_NAMES.filter((c) => isPageChannel(c)),
    events: [...EVENT_NAMES],
  });
  return { sent, copied, copiedSecrets, shownInFolder, relaunched, openedPages, openedFolders };
}
