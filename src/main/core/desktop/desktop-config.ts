// The core's settings as the desktop Settings screen edits them: read from the running config, changed
// in `<dataDir>/config.json` (the file the headless server reads too), checked before anything is
// written (the same config schema, programs that exist, a port nobody else holds). Plain Node.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CoreSettings, CoreSettingsPatch } from '../../../shared/desktop-admin.schema.js';
import type { AppConfig } from '../config/config.schema.js';
import { ConfigSchema } from '../config/config.schema.js';
import { replaceFileSync } from '../fs/replace-file.js';

export interface SettingsIssue {
  path: string;
  message: string;
}

/** Settings an environment variable fixes (load-config.ts reads them over config.json). */
const ENV_OF: Record<string, string> = {
  'server.port': 'AGENT_STUDIO_PORT',
  'browser.executablePath': 'AGENT_STUDIO_BROWSER_PATH',
  'browser.connectEndpoint': 'AGENT_STUDIO_BROWSER_ENDPOINT',
  'browser.maxContexts': 'AGENT_STUDIO_MAX_BROWSER_CONTEXTS',
};

export function lockedByEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(Object.entries(ENV_OF).filter(([, name]) => env[name] !== undefined && env[name] !== ''));
}

export const configFileOf = (dataDir: string) => path.join(dataDir, 'config.json');

export const autoRenderConcurrency = () => Math.max(1, Math.floor(os.availableParallelism() / 2));

/** The editable settings as the running core uses them. */
export function coreSettingsOf(config: AppConfig, s3HasCredentials: boolean): CoreSettings {
  const s3 = config.storage.s3;
  return {
    server: { port: config.server.port },
    storage: {
      backend: config.storage.backend,
      s3: s3
        ? { bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint ?? null, forcePathStyle: s3.forcePathStyle }
        : null,
      s3HasCredentials,
    },
    browser: {
      executablePath: config.browser.executablePath ?? null,
      connectEndpoint: config.browser.connectEndpoint ?? null,
      maxContexts: config.browser.maxContexts,
    },
    jobs: {
      renderConcurrency: config.jobs.renderConcurrency ?? null,
      renderConcurrencyAuto: autoRenderConcurrency(),
    },
  };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** config.json as written (not merged with defaults); `{}` when there is none. Throws when it is not a JSON object. */
export function readConfigFile(file: string): Json {
  if (!fs.existsSync(file)) return {};
  const text = fs.readFileSync(file, 'utf8');
  let value: unknown;
  try {
    value = text.trim() ? JSON.parse(text) : {};
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix or remove it first.`);
  }
  if (!isObject(value)) throw new Error(`${file} does not hold a JSON object; fix or remove it first.`);
  return value;
}

/** Sets `value` at `keys` (creating objects on the way); undefined leaves it, null removes it. */
function setPath(target: Json, keys: string[], value: unknown): void {
  if (value === undefined) return;
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Json;
  }
  const last = keys[keys.length - 1];
  if (value === null) delete node[last];
  else node[last] = value;
}

/** The file's contents with the patch applied; the S3 credentials are not part of it (secret store). */
export function applyPatch(file: Json, patch: CoreSettingsPatch): Json {
  const next = structuredClone(file);
  setPath(next, ['server', 'port'], patch.server?.port);
  if (patch.storage) {
    setPath(next, ['storage', 'backend'], patch.storage.backend);
    const s3 = patch.storage.s3;
    if (s3) {
      for (const key of ['bucket', 'region', 'endpoint', 'forcePathStyle'] as const)
        setPath(next, ['storage', 's3', key], s3[key]);
    }
  }
  if (patch.browser) {
    for (const key of ['executablePath', 'connectEndpoint', 'maxContexts'] as const)
      setPath(next, ['browser', key], patch.browser[key]);
  }
  if (patch.jobs) setPath(next, ['jobs', 'renderConcurrency'], patch.jobs.renderConcurrency);
  return next;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A program the core may run: an existing file this user may execute. */
function programProblem(file: string): string | null {
  if (!path.isAbsolute(file)) return 'Give the full path of the program (e.g. /usr/bin/chromium).';
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return 'This is a folder, not a program.';
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EACCES' ? 'This file is not executable.' : 'No program at this path.';
  }
}

export interface SettingsPlan {
  /** config.json after the change. */
  next: Json;
  /** Whether anything the core reads changes (then it is restarted). */
  changed: boolean;
  issues: SettingsIssue[];
}

/**
 * Checks a change against the current file and environment: fields an environment variable fixes,
 * the config schema (the same one the core starts with), programs and the S3 settings. No I/O but reads.
 */
export function planSettingsChange(opts: {
  dataDir: string;
  file: Json;
  patch: CoreSettingsPatch;
  env?: NodeJS.ProcessEnv;
  /** Whether the patch brings S3 credentials (a change even when config.json stays the same). */
  newCredentials: boolean;
}): SettingsPlan {
  const issues: SettingsIssue[] = [];
  const locked = lockedByEnv(opts.env);
  const next = applyPatch(opts.file, opts.patch);
  for (const [field, variable] of Object.entries(locked)) {
    const keys = field.split('.');
    const get = (o: Json) => keys.reduce<unknown>((n, k) => (isObject(n) ? n[k] : undefined), o);
    if (!same(get(next), get(opts.file)))
      issues.push({ path: field, message: `Set by the environment variable ${variable}: change it there.` });
  }
  const parsed = ConfigSchema.safeParse({ ...next, dataDir: opts.dataDir });
  if (!parsed.success) {
    for (const i of parsed.error.issues) issues.push({ path: i.path.join('.'), message: i.message });
    return { next, changed: true, issues };
  }
  const config = parsed.data;
  if (config.storage.backend === 's3' && !config.storage.s3)
    issues.push({ path: 'storage.s3.bucket', message: 'bucket is required for S3 storage' });
  const exe = opts.patch.browser?.executablePath;
  const problem = exe ? programProblem(exe) : null;
  if (problem) issues.push({ path: 'browser.executablePath', message: problem });
  return { next, changed: opts.newCredentials || !same(next, opts.file), issues };
}

/** Whether nothing on 127.0.0.1 holds `port` (0, and the port the core itself listens on, are free). */
export function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * Writes config.json whole (temp file, fsync, rename), so a crash never leaves half a file; while an editor or
 * antivirus on Windows holds the old one open for a moment, the rename is tried again.
 */
export function writeConfigFile(file: string, content: Json): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  replaceFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
}
