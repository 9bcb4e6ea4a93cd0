import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../core/config/load-config.js';
import { createCore, ensureFirstRun, type BaseCore } from '../core/create-core.js';
import { missingSecretsNotice } from '../core/secrets/secret-inventory.js';
import type { HostedCore } from '../core/desktop/core-host.js';
import { resolveDesktopKey } from '../core/desktop/desktop-key.js';
import { createInProcessApi } from '../core/http/in-process-api.js';
import type { VisibleBrowserFinisher } from '../core/login/interactive/visible-browser-finisher.js';
import { buildCoreServer } from '../core/routes.js';
import { APP_VERSION } from '../../shared/version.js';
import type { AppInfo } from '../../shared/ipc-contract.js';
import { listenForAgents, type PortInUseChoice } from './api-listen.js';
import type { SettingsStore } from './settings.js';

/** The running core as the desktop uses it (the host restarts it when settings change). */
export type RunningCore = HostedCore;

/**
 * Builds the core in the app's data dir, runs first-run setup, starts the agents' API on
 * 127.0.0.1, and gives the UI the same Fastify app in process (http/in-process-api.ts). When the
 * port is taken the person chooses (api-listen.ts); without the API the UI still works (in process) and
 * AppInfo.serverError says why agents cannot connect. Port and the rest: config.json and environment.
 */
export async function startCore(opts: {
  dataDir: string;
  settings: SettingsStore;
  /** The desktop app never falls back silently: with no keychain it asks the person (file or quit). */
  askWithoutKeychain: (reason: string) => Promise<'file' | 'quit'>;
  /** Asked when the configured API port is taken; without it the app runs without the API. */
  portInUse?: (port: number) => Promise<PortInUseChoice>;
  /**
   * Makes the visible-browser finisher of interactive logins (login-window.ts in the app). Passed in,
   * not imported, so this file runs without Electron (the desktop e2e tests start the core with it).
   */
  interactiveFinisher?: (base: BaseCore) => VisibleBrowserFinisher;
  /**
   * The origin of the window's pages (app://renderer): it may show the live page where a person finishes a stuck
   * login in a frame of its own. The visible browser window above is used only while the API does not listen.
   */
  windowOrigin?: string;
}): Promise<RunningCore | null> {
  const settings = opts.settings.get();
  const config = loadConfig({ dataDir: opts.dataDir });
  if (opts.windowOrigin) config.login.livePageEmbedders = [...config.login.livePageEmbedders, opts.windowOrigin];
  if (!process.env.AGENT_STUDIO_SECRETS_BACKEND) config.secrets.backend = settings.secretsBackend;
  // Logins stopped at a CAPTCHA or second factor can be finished by the person (interactive: true).
  let finisher: VisibleBrowserFinisher | undefined;
  const makeFinisher = opts.interactiveFinisher;
  const core = createCore(
    config,
    makeFinisher ? { interactiveFinisher: (base) => (finisher = makeFinisher(base)) } : {},
  );
  const keychainProblem =
    config.secrets.backend === 'keychain'
      ? await core.secrets.check().then(
          () => null,
          (err: Error) => err.message,
        )
      : null;
  if (keychainProblem) {
    await core.dispose();
    if ((await opts.askWithoutKeychain(keychainProblem)) === 'quit') return null;
    opts.settings.update({ secretsBackend: 'file' });
    return startCore(opts);
  }
  try {
    const first = await ensureFirstRun(core);
    let app: FastifyInstance;
    let serverUrl: string | null = null;
    let host: string | undefined;
    let close: () => Promise<void>;
    const { server, serverError, quit } = await listenForAgents(core, opts.portInUse);
    if (quit) {
      await core.dispose();
      return null;
    }
    if (server) {
      app = server.app;
      serverUrl = server.url;
      host = new URL(server.url).host;
      close = () => server.close();
    } else {
      app = await buildCoreServer(core);
      core.startBackgroundWork();
      close = async () => {
        await app.close();
        await core.dispose();
      };
    }
    const desktopKey = await resolveDesktopKey(core);
    const info: AppInfo = {
      version: APP_VERSION,
      serverUrl,
      serverError,
      dataDir: config.dataDir,
      hasDesktopKey: desktopKey.persisted,
      secretBackend: core.secrets.backend,
      secretStoreError: desktopKey.secretStoreError ?? first.secretStoreError ?? null,
      secretsMissing: await missingSecretsNotice(core.secretsInventory),
      platform: process.platform,
    };
    let closing: Promise<void> | null = null;
    return {
      core,
      desktop: {
        api: createInProcessApi({ app, key: desktopKey.key, host }),
        orgId: desktopKey.orgId,
        keyId: core.keys.authenticate(desktopKey.key)?.keyId ?? null,
      },
      info,
      // Login windows first: a request waiting for a person answers at once instead of holding up the close.
      close: () => (closing ??= (finisher?.dispose() ?? Promise.resolve()).then(close)),
    };
  } catch (err) {
    await core.dispose();
    throw err;
  }
}
