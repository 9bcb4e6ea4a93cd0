import path from 'node:path';
import type { Core } from '../core/create-core.js';
import { startServer, type RunningServer } from '../core/run-server.js';

/** The person's answer when the configured port is taken. */
export type PortInUseChoice = 'free-port' | 'without-api' | 'quit';

/** Where and how the agents' API port is set, for the messages that say how to change it. */
export function portHowTo(dataDir: string): string {
  return (
    'change it in Settings (Local API, which restarts the API at once), or set "server": { "port": 4800 } in ' +
    `${path.join(dataDir, 'config.json')} or start the app with the environment variable AGENT_STUDIO_PORT=4800 ` +
    '(any free port), then restart Agent Studio'
  );
}

export interface ApiListenResult {
  /** Null when the API is not listening (the window still works in process). */
  server: RunningServer | null;
  /** Why agents cannot connect, for the window's status banner. */
  serverError: string | null;
  /** The person chose to quit. */
  quit: boolean;
}

/**
 * Starts the agents' API on the configured port. A port in use is a question for the person, not a
 * crash: start on a port the OS picks (this run only), continue without the API, or quit.
 */
export async function listenForAgents(
  core: Core,
  portInUse?: (port: number) => Promise<PortInUseChoice>,
): Promise<ApiListenResult> {
  const port = core.config.server.port;
  try {
    return { server: await startServer(core), serverError: null, quit: false };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code !== 'EADDRINUSE') {
      core.log.warn({ err: e.message }, 'desktop: API server not listening');
      return { server: null, serverError: `The local API could not start: ${e.message}`, quit: false };
    }
    const choice = portInUse ? await portInUse(port) : 'without-api';
    if (choice === 'quit') return { server: null, serverError: null, quit: true };
    if (choice === 'free-port') {
      try {
        return { server: await startServer(core, { port: 0 }), serverError: null, quit: false };
      } catch (again) {
        core.log.warn({ err: (again as Error).message }, 'desktop: API server not listening on a free port either');
      }
    }
    core.log.warn({ port }, 'desktop: API port in use, running without the API');
    return {
      server: null,
      serverError:
        `Port ${port} is in use, so agents cannot reach this app (the window still works). To use another port, ` +
        `${portHowTo(core.config.dataDir)}.`,
      quit: false,
    };
  }
}
