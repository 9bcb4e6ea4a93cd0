// Requests whose answer waits for something (a long poll: GET /api/login/{id}?wait=). Each gets a signal that aborts
// when its client goes away, so nothing keeps waiting for nobody, or when the server starts closing, so a long poll
// never holds the shutdown open: it is answered at once, with what stands then.
import type { FastifyInstance, FastifyReply } from 'fastify';

export class WaitingRequests {
  private readonly open = new Set<AbortController>();

  constructor(app: FastifyInstance) {
    app.addHook('preClose', async () => {
      for (const waiting of this.open) waiting.abort();
    });
  }

  /** Runs `wait` with that signal; the listeners it took are removed when it settles. */
  async run<T>(reply: FastifyReply, wait: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const waiting = new AbortController();
    // Before the answer is written, the response closes only when the connection does: the client is gone.
    const gone = () => waiting.abort();
    reply.raw.once('close', gone);
    this.open.add(waiting);
    try {
      return await wait(waiting.signal);
    } finally {
      this.open.delete(waiting);
      reply.raw.off('close', gone);
    }
  }

  /** Requests waiting now. */
  get size(): number {
    return this.open.size;
  }
}
