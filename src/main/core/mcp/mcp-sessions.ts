// The open MCP sessions of the Streamable HTTP endpoint (mcp.routes.ts): by Mcp-Session-Id, each bound to the API
// key that opened it, bounded in number per key and in idle time.
import type { ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AppError } from '../errors.js';

export interface McpSession {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** The API key (its id) that opened the session: only it may use the session. */
  keyId: string;
  lastSeen: number;
  /** HTTP requests of the session still open (a tool call's stream, the GET stream): a busy session never idles out. */
  open: number;
}

export interface McpSessionLimits {
  /** A session without an open request for this long is closed. */
  idleMs: number;
  /** Most sessions one key keeps; a new one closes that key's longest-idle session. */
  perKey: number;
}

export const MCP_SESSION_LIMITS: McpSessionLimits = { idleMs: 30 * 60_000, perKey: 100 };

export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: McpSessionLimits = MCP_SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, limits.idleMs));
    this.sweeper.unref();
  }

  /** The session, when it exists and belongs to this key (another key's session is as unknown as none). */
  get(id: string, keyId: string): McpSession | undefined {
    const s = this.sessions.get(id);
    return s && s.keyId === keyId ? s : undefined;
  }

  /**
   * Room for one more session of this key, made before it opens: at the cap the longest-idle session of the key
   * without an open request is closed; when all are busy, a 429.
   */
  async makeRoom(keyId: string): Promise<void> {
    const mine = [...this.sessions.values()].filter((s) => s.keyId === keyId);
    if (mine.length < this.limits.perKey) return;
    const idle = mine.filter((s) => s.open === 0).sort((a, b) => a.lastSeen - b.lastSeen)[0];
    if (!idle)
      throw new AppError(
        429,
        'too_many_sessions',
        `This API key has ${mine.length} MCP sessions with requests in flight. End one (DELETE /mcp with its ` +
          'Mcp-Session-Id) or wait for one to finish.',
      );
    await idle.transport.close();
  }

  /** Called by the transport once the session has its id (after the initialize request). */
  add(id: string, session: McpSession): void {
    this.sessions.set(id, session);
  }

  /** The transport closed (DELETE, idle, shutdown): forget the session. */
  remove(id: string | undefined): void {
    if (id) this.sessions.delete(id);
  }

  /** An HTTP request of the session: counted as open until its answer closes. */
  track(session: McpSession, res: ServerResponse): void {
    session.open++;
    session.lastSeen = this.now();
    res.once('close', () => {
      session.open--;
      session.lastSeen = this.now();
    });
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Closes the sessions idle past the limit (run every minute, or less with a shorter limit). */
  sweep(): void {
    const before = this.now() - this.limits.idleMs;
    for (const s of this.sessions.values())
      if (s.open === 0 && s.lastSeen < before) void s.transport.close().catch(() => undefined);
  }

  /** Server shutdown: every session ends (their tool calls are aborted). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
    this.sessions.clear();
  }
}
