import type { FastifyInstance } from 'fastify';
import { buildCoreServer } from './routes.js';
import type { Core } from './create-core.js';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish, then disposes the core. */
  close(): Promise<void>;
}

export async function startServer(core: Core, opts: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const app = await buildCoreServer(core);
  const host = opts.host ?? core.config.server.host;
  await app.listen({ host, port: opts.port ?? core.config.server.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? core.config.server.port);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // Stopped logins are finished by a person on a live page this server serves (login/takeover).
  core.login.takeover?.setBaseUrl(url);
  core.startBackgroundWork();
  let closing: Promise<void> | null = null;
  return {
    app,
    url,
    port,
    close() {
      closing ??= (async () => {
        app.shutdown.closing = true;
        await app.close();
        await core.dispose();
      })();
      return closing;
    },
  };
}
