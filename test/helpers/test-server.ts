import { tempDir } from './temp-dir.js';
import { parseConfig } from '../../src/main/core/config/load-config.js';
import type { AppConfigInput } from '../../src/main/core/config/config.schema.js';
import { createCore, type Core, type CoreOverrides } from '../../src/main/core/create-core.js';
import { startServer, type RunningServer } from '../../src/main/core/run-server.js';

export { tempDir };

export interface TestServer {
  url: string;
  core: Core;
  server: RunningServer;
  dataDir: string;
  orgId: string;
  /** A full-scope key of `orgId`. */
  key: string;
  /** fetch against the server with the key (pass `key: null` for none, or another key). */
  request(pathname: string, init?: RequestInit & { key?: string | null; json?: unknown }): Promise<Response>;
  /** Makes another org with a key of the given scopes (default all). */
  newOrg(name: string, scopes?: string[]): { orgId: string; key: string };
  close(): Promise<void>;
}

/** A real server on 127.0.0.1 port 0 with its own temp data dir and a fresh org + key. */
export async function startTestServer(
  config: Partial<AppConfigInput> = {},
  opts: { credits?: number; overrides?: CoreOverrides } = {},
): Promise<TestServer> {
  const dataDir = config.dataDir ?? tempDir();
  const core = createCore(
    parseConfig({
      ...config,
      dataDir,
      log: { level: 'info', ...(config.log ?? {}) },
      server: { port: 0, ...(config.server ?? {}) },
      // Rendering is paused unless a test asks for it: most tests look at what generate records.
      jobs: { renderConcurrency: 0, ...(config.jobs ?? {}) },
    }),
    opts.overrides,
  );
  const server = await startServer(core, { port: 0 });
  const newOrg = (name: string, scopes?: string[]) => {
    const org = core.orgs.create(name);
    if (opts.credits) core.credits.grant(org.id, opts.credits);
    return { orgId: org.id, key: core.keys.create(org.id, { scopes }).key };
  };
  const main = newOrg('test-org');
  return {
    url: server.url,
    core,
    server,
    dataDir,
    orgId: main.orgId,
    key: main.key,
    newOrg,
    request(pathname, init = {}) {
      const { key = main.key, json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(server.url + pathname, {
        ...rest,
        headers,
        body: json !== undefined ? JSON.stringify(json) : rest.body,
      });
    },
    async close() {
      await server.close();
    },
  };
}
