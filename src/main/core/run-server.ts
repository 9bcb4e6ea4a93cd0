import type { FastifyInstance } from 'fastify';
import { buildCoreServer } from './routes.js';
import type { Core } from './create-core.js';
import { recordListeningServer } from './http/live-server.js';
import { removeServerRecord } from './http/server-record.js';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish, then disposes the core. */
  close(): Promise<void>;
}

export interface StartServerOptions {
  port?: number;
  host?: string;
  /**
   * Record the address in `<dataDir>/server.json` (default true), so MCP servers on stdio of the same data dir
   * hand out links to this server. The stdio MCP server's own listener passes false: it lives only as long as
   * its agent host keeps it, and is exactly what the record lets links outlive.
   */
  recordAddress?: boolean;
}

export async function startServer(core: Core, opts: StartServerOptions = {}): Promise<RunningServer> {
  const app = await buildCoreServer(core);
  const host = opts.host ?? core.config.server.host;
  await app.listen({ host, port: opts.port ?? core.config.server.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? core.config.server.port);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // Stopped logins are finished by a person on a live page this server serves (login/takeover).
  core.login.takeover.setBaseUrl(url);
  const identity = { installId: core.installId, dataDir: core.config.dataDir };
  let recorded = false;
  if (opts.recordAddress !== false) {
    try {
      recorded = await recordListeningServer(identity, url);
      if (!recorded) core.log.info({ url }, 'server.json names another live server of this data dir: kept');
    } catch (err) {
      // Not fatal: the API works; only stdio MCP servers of this data dir keep handing out their own links.
      core.log.warn({ err: (err as Error).message }, 'could not record the server address in the data dir');
    }
  }
  core.startBackgroundWork();
  let closing: Promise<void> | null = null;
  return {
    app,
    url,
    port,
    close() {
      closing ??= (async () => {
        // Before the listener stops: while this server still answers, no other one takes its record for stale.
        if (recorded) {
          try {
            removeServerRecord(core.config.dataDir, { pid: process.pid, url });
          } catch (err) {
            core.log.warn({ err: (err as Error).message }, 'could not remove server.json');
          }
        }
        app.shutdown.closing = true;
        await app.close();
        await core.dispose();
      })();
      return closing;
    },
  };
}
