import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../core/config/load-config.js';
import { createCore, ensureFirstRun, type Core } from '../core/create-core.js';
import { DesktopClient, resolveDesktopKey } from '../core/desktop/desktop-client.js';
import { buildServer } from '../core/http/build-server.js';
import { ROUTE_MODULES } from '../core/http/modules/index.js';
import { startServer } from '../core/run-server.js';
import { APP_VERSION } from '../../shared/version.js';
import type { AppInfo } from '../../shared/ipc-contract.js';
import type { SettingsStore } from './settings.js';

export interface RunningCore {
  core: Core;
  client: DesktopClient;
  info: AppInfo;
  /** Closes the HTTP server (if listening) and disposes the core. Idempotent. */
  close(): Promise<void>;
}

/**
 * Builds the core in the app's data dir, runs first-run setup, starts the agents' API on
 * 127.0.0.1, and gives the UI a DesktopClient over the same Fastify app. When the port is taken the
 * UI still works (in process) and AppInfo.serverError says why agents cannot connect.
 */
export async function startCore(opts: {
  dataDir: string;
  settings: SettingsStore;
  /** The desktop app never falls back silently: with no keychain it asks the person (file or quit). */
  askWithoutKeychain: (reason: string) => Promise<'file' | 'quit'>;
}): Promise<RunningCore | null> {
  const settings = opts.settings.get();
  const config = loadConfig({ dataDir: opts.dataDir, port: settings.serverPort });
  if (!process.env.AGENT_STUDIO_SECRETS_BACKEND) config.secrets.backend = settings.secretsBackend;
  const core = createCore(config);
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
    let serverError: string | null = null;
    let close: () => Promise<void>;
    try {
      const server = await startServer(core);
      app = server.app;
      serverUrl = server.url;
      host = new URL(server.url).host;
      close = () => server.close();
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      serverError =
        e.code === 'EADDRINUSE'
          ? `Port ${config.server.port} is in use, so agents cannot reach this app (the UI still works). Choose another port in settings.json or stop the other process.`
          : `The local API could not start: ${e.message}`;
      core.log.warn({ err: e.message }, 'desktop: API server not listening');
      app = await buildServer(core, { modules: ROUTE_MODULES });
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
      platform: process.platform,
    };
    let closing: Promise<void> | null = null;
    return {
      core,
      client: new DesktopClient({ app, key: desktopKey.key, host }),
      info,
      close: () => (closing ??= close()),
    };
  } catch (err) {
    await core.dispose();
    throw err;
  }
}
