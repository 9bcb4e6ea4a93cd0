// The Settings screen's main-only channels: the core's settings (read from the running core, written
// to config.json and applied by restarting it), the S3 connection test, the theme, and whether the
// agents' API answers. Plain Node: the Electron layer supplies the host and the theme store.
import fs from 'node:fs';
import type { DesktopSettings, Theme } from '../../../shared/desktop-admin.schema.js';
import { resolveBrowserExecutable } from '../login/browser/browser-resolver.js';
import { checkApiHealth } from './api-health.js';
import type { CoreHost, HostedCore } from './core-host.js';
import {
  configFileOf,
  coreSettingsOf,
  lockedByEnv,
  planSettingsChange,
  portIsFree,
  readConfigFile,
  writeConfigFile,
  type SettingsIssue,
} from './desktop-config.js';
import { fail } from './http-channel.js';
import type { LocalHandlers } from './ipc-dispatcher.js';
import { checkS3Storage } from './storage-check.js';

export type SettingsChannelName =
  'settings:get' | 'settings:update' | 'settings:setTheme' | 'settings:testStorage' | 'app:apiStatus';

/** Where the theme choice is kept (electron-store in the app; memory in tests). */
export interface ThemeStore {
  get(): Theme;
  set(theme: Theme): void;
}

export type DesktopHost = Pick<CoreHost, 'current' | 'isRestarting' | 'restart'>;

export interface SettingsChannelDeps {
  host: DesktopHost;
  theme: ThemeStore;
  env?: NodeJS.ProcessEnv;
}

const DEFAULT_S3_ACCOUNTS = { accessKeyIdSecret: 's3.accessKeyId', secretAccessKeySecret: 's3.secretAccessKey' };

const invalid = (issues: SettingsIssue[]) =>
  fail('validation_error', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });

/** The port the API listens on now (it may differ from the configured one after "start on a free port"). */
const listeningPort = (running: HostedCore) =>
  running.info.serverUrl ? Number(new URL(running.info.serverUrl).port) : null;

export function settingsChannels(deps: SettingsChannelDeps): Pick<LocalHandlers, SettingsChannelName> {
  const { host, theme } = deps;
  const env = deps.env ?? process.env;

  const s3Accounts = (running: HostedCore) => running.core.config.storage.s3 ?? DEFAULT_S3_ACCOUNTS;
  const storedS3Credentials = async (running: HostedCore) => {
    const accounts = s3Accounts(running);
    try {
      const [accessKeyId, secretAccessKey] = await Promise.all([
        running.core.secrets.get(accounts.accessKeyIdSecret),
        running.core.secrets.get(accounts.secretAccessKeySecret),
      ]);
      return accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null;
    } catch {
      return null;
    }
  };

  const read = async (): Promise<DesktopSettings> => {
    const running = host.current();
    const config = running.core.config;
    return {
      core: coreSettingsOf(config, (await storedS3Credentials(running)) !== null),
      dataDir: config.dataDir,
      configFile: configFileOf(config.dataDir),
      lockedByEnv: lockedByEnv(env),
      theme: theme.get(),
      autoBrowser: autoBrowser(),
    };
  };

  /** What the automatic search finds (the configured path left out: that is "This program"). */
  const autoBrowser = (): DesktopSettings['autoBrowser'] => {
    try {
      const { path, source } = resolveBrowserExecutable({ env });
      return { found: true, path, source: source === 'playwright' ? 'playwright' : 'system' };
    } catch (err) {
      return { found: false, problem: (err as Error).message };
    }
  };

  return {
    'settings:get': async () => ({ ok: true, value: await read() }),

    'settings:update': async (patch) => {
      const running = host.current();
      const dataDir = running.core.config.dataDir;
      const file = configFileOf(dataDir);
      let before: Record<string, unknown>;
      try {
        before = readConfigFile(file);
      } catch (err) {
        return fail('config_unreadable', (err as Error).message);
      }
      const credentials = patch.storage?.s3;
      const newCredentials = Boolean(credentials?.accessKeyId && credentials.secretAccessKey);
      const plan = planSettingsChange({ dataDir, file: before, patch, env, newCredentials });
      const port = patch.server?.port;
      if (port !== undefined && port !== listeningPort(running) && !(await portIsFree(port))) {
        plan.issues.push({
          path: 'server.port',
          message: `Port ${port} is in use by another program. Choose another, or 0 to let the system pick a free one.`,
        });
      }
      if (plan.issues.length) return invalid(plan.issues);
      if (!plan.changed) {
        const { serverUrl, serverError } = running.info;
        return { ok: true, value: { settings: await read(), restarted: false, serverUrl, serverError } };
      }
      if (credentials?.accessKeyId && credentials.secretAccessKey) {
        // Into the secret store, never config.json; the restarted core's S3 client reads them.
        const next = (plan.next.storage as { s3?: Partial<typeof DEFAULT_S3_ACCOUNTS> } | undefined)?.s3;
        const accounts = { ...DEFAULT_S3_ACCOUNTS, ...next };
        try {
          await running.core.secrets.set(accounts.accessKeyIdSecret, credentials.accessKeyId);
          await running.core.secrets.set(accounts.secretAccessKeySecret, credentials.secretAccessKey);
        } catch (err) {
          return fail('secrets_unavailable', `The S3 credentials could not be stored: ${(err as Error).message}`);
        }
      }
      const previousText = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
      try {
        const restarted = await host.restart({
          apply: () => writeConfigFile(file, plan.next),
          undo: () => (previousText === null ? fs.rmSync(file, { force: true }) : fs.writeFileSync(file, previousText)),
        });
        const { serverUrl, serverError } = restarted.info;
        return { ok: true, value: { settings: await read(), restarted: true, serverUrl, serverError } };
      } catch (err) {
        return fail(
          'restart_failed',
          `The core could not start with these settings (${(err as Error).message}); the previous settings were restored.`,
        );
      }
    },

    'settings:setTheme': async ({ theme: chosen }) => {
      theme.set(chosen);
      return { ok: true, value: { theme: chosen } };
    },

    'settings:testStorage': async (args) => {
      const running = host.current();
      const given =
        args.accessKeyId && args.secretAccessKey
          ? { accessKeyId: args.accessKeyId, secretAccessKey: args.secretAccessKey }
          : null;
      const result = await checkS3Storage({
        bucket: args.bucket,
        region: args.region,
        endpoint: args.endpoint ?? null,
        forcePathStyle: args.forcePathStyle,
        credentials: given ?? (await storedS3Credentials(running)),
      });
      return { ok: true, value: result };
    },

    'app:apiStatus': async () => {
      const now = Date.now();
      if (host.isRestarting)
        return {
          ok: true,
          value: { state: 'restarting', url: null, message: 'Applying new settings…', checked_at: now },
        };
      const { serverUrl, serverError } = host.current().info;
      if (!serverUrl) return { ok: true, value: { state: 'off', url: null, message: serverError, checked_at: now } };
      return { ok: true, value: await checkApiHealth(serverUrl) };
    },
  };
}
