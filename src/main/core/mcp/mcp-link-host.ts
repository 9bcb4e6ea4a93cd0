// Where the links a stdio MCP server hands out (upload_url, video_url, thumbnail_url) point. The stdio process
// listens on a port of its own, which dies when the agent host restarts its tools; when the API server of the same
// data dir runs (npm start, serve, the desktop app: <dataDir>/server.json), the tools' calls carry that server's
// Host instead, so the links it builds outlive this process. Both processes share the data dir's database and
// URL-signing key, so a link signed here is valid there.
import type { Logger } from '../logger.js';
import { processAlive } from '../child-process.js';
import { isLiveServer } from '../http/live-server.js';
import { readServerRecord, type DataDirIdentity, type ServerRecord } from '../http/server-record.js';

/** A server that starts or stops is noticed by the next call after this long at most (its record at once). */
const RECHECK_MS = 3000;

export interface LinkHostOptions {
  identity: DataDirIdentity;
  /** This process's own listener, `127.0.0.1:<port>`: the links' host when no server of the data dir runs. */
  ownHost: string;
  log?: Logger;
  recheckMs?: number;
}

interface Checked {
  /** The record as read: a new or changed server.json is checked at once. */
  record: string;
  at: number;
  live: ServerRecord | null;
}

const hostOf = (record: ServerRecord) => new URL(record.url).host;

/** Asked before each tool call (McpServerOptions.host): the Host the call carries. */
export class LinkHost {
  private checked: Checked | null = null;
  private pending: { record: string; host: Promise<string> } | null = null;
  /** The server links went to last (null: this process); each change is logged once. */
  private target: ServerRecord | null = null;

  constructor(private readonly opts: LinkHostOptions) {}

  /** The running server of the data dir the links point at now; null: this process. */
  async liveServer(): Promise<ServerRecord | null> {
    await this.current();
    return this.target;
  }

  current(): Promise<string> {
    const record = readServerRecord(this.opts.identity.dataDir);
    if (!record) return Promise.resolve(this.use(null));
    const key = JSON.stringify(record);
    const c = this.checked;
    const fresh = c?.record === key && Date.now() - c.at < (this.opts.recheckMs ?? RECHECK_MS);
    // A server that crashed is noticed at once: its pid is gone.
    if (c && fresh && (c.live === null || processAlive(c.live.pid))) return Promise.resolve(this.use(c.live));
    // Calls at the same moment share one check (of the same record).
    if (this.pending?.record === key) return this.pending.host;
    const host = isLiveServer(record, this.opts.identity)
      .catch(() => false)
      .then((ok) => {
        const live = ok ? record : null;
        this.checked = { record: key, at: Date.now(), live };
        return this.use(live);
      })
      .finally(() => {
        if (this.pending?.host === host) this.pending = null;
      });
    this.pending = { record: key, host };
    return host;
  }

  private use(live: ServerRecord | null): string {
    if (live?.url !== this.target?.url) {
      this.opts.log?.info(
        { links: live?.url ?? `http://${this.opts.ownHost}` },
        live ? 'mcp links point at the running server of the data dir' : 'mcp links point at this stdio process',
      );
    }
    this.target = live;
    return live ? hostOf(live) : this.opts.ownHost;
  }
}

/** Said after a result's links while no server of the data dir runs (LinkHost.liveServer() is null). */
export const SHORT_LIVED_LINKS =
  '(These links work only while this MCP process runs: no Agent Studio server runs on its data dir. Start one — ' +
  'npm start or the desktop app — for links that last.)';

/** What the server's instructions say about the links (McpServerOptions.linkLifetimeNote). */
export function linkLifetimeNote(ownUrl: string, live: ServerRecord | null): string {
  const rule =
    'Links in results (upload_url, video_url, thumbnail_url) point at the Agent Studio server running on the same ' +
    'data dir (npm start, npm run serve, the desktop app) when there is one, and then outlive this process; ' +
    `otherwise at ${ownUrl}, this process's own listener, and then they work only as long as this process runs.`;
  return live
    ? `${rule} Right now they point at the running server ${live.url}.`
    : `${rule} Right now no such server runs: links handed out now die with this process (a server started ` +
        'later is used for the links handed out after that).';
}
