import fs from 'node:fs';
import path from 'node:path';
import { ConfigSchema, type AppConfig } from './config.schema.js';
import { defaultDataDir } from './app-paths.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Overrides = { port?: number; host?: string; dataDir?: string };

function deepMerge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    const prev = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && prev && typeof prev === 'object' && !Array.isArray(prev)
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

function envLayer(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const layer: Record<string, Record<string, unknown>> = {
    server: {},
    log: {},
    secrets: {},
    browser: {},
    login: {},
    network: {},
    mcp: {},
  };
  const num = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new ConfigError(`${name} must be a number, got "${raw}"`);
    return n;
  };
  if (env.AGENT_STUDIO_PORT) layer.server.port = num('AGENT_STUDIO_PORT');
  if (env.AGENT_STUDIO_HOST) layer.server.host = env.AGENT_STUDIO_HOST;
  if (env.AGENT_STUDIO_LOG_LEVEL) layer.log.level = env.AGENT_STUDIO_LOG_LEVEL;
  if (env.AGENT_STUDIO_SECRETS_BACKEND) layer.secrets.backend = env.AGENT_STUDIO_SECRETS_BACKEND;
  if (env.AGENT_STUDIO_SECRETS_SERVICE) layer.secrets.service = env.AGENT_STUDIO_SECRETS_SERVICE;
  if (env.AGENT_STUDIO_BROWSER_PATH) layer.browser.executablePath = env.AGENT_STUDIO_BROWSER_PATH;
  if (env.AGENT_STUDIO_BROWSER_ENDPOINT) layer.browser.connectEndpoint = env.AGENT_STUDIO_BROWSER_ENDPOINT;
  if (env.AGENT_STUDIO_MAX_BROWSER_CONTEXTS) layer.browser.maxContexts = num('AGENT_STUDIO_MAX_BROWSER_CONTEXTS');
  if (env.AGENT_STUDIO_OUTBOUND) layer.network.outbound = env.AGENT_STUDIO_OUTBOUND;
  if (env.AGENT_STUDIO_MCP_INLINE_CREDENTIALS)
    layer.mcp.allowInlineCredentials = /^(1|true|yes)$/i.test(env.AGENT_STUDIO_MCP_INLINE_CREDENTIALS);
  if (env.AGENT_STUDIO_LOGIN_TIMEOUT_MS) layer.login.timeoutMs = num('AGENT_STUDIO_LOGIN_TIMEOUT_MS');
  return layer;
}

/**
 * Headless configuration: defaults < `<dataDir>/config.json` < environment < explicit overrides.
 * The data dir itself comes from overrides, then AGENT_STUDIO_DATA_DIR, then the OS app-data folder.
 */
export function loadConfig(overrides: Overrides = {}, env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = path.resolve(overrides.dataDir ?? env.AGENT_STUDIO_DATA_DIR ?? defaultDataDir(env));
  const file = path.join(dataDir, 'config.json');
  let fromFile: Record<string, unknown> = {};
  if (fs.existsSync(file)) {
    try {
      fromFile = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new ConfigError(`${file} is not valid JSON: ${(err as Error).message}`);
    }
  }
  const explicit: Record<string, unknown> = { server: {} };
  if (overrides.port !== undefined) (explicit.server as Record<string, unknown>).port = overrides.port;
  if (overrides.host !== undefined) (explicit.server as Record<string, unknown>).host = overrides.host;
  const merged = deepMerge(deepMerge(deepMerge(fromFile, envLayer(env)), explicit), { dataDir });
  return parseConfig(merged, file);
}

export function parseConfig(input: unknown, source = 'config'): AppConfig {
  const parsed = ConfigSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration (${source}): ${issues}`);
  }
  return parsed.data;
}
