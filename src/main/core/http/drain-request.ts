// Early answers to a request whose body is still arriving (an upload refused mid-stream, a bad multipart part).
import type { IncomingMessage } from 'node:http';

/** How much of a rejected body is still read (and dropped) so the client sees the error response. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/**
 * Reads and drops the rest of a request body (bounded in bytes and time), so an early error answer is not lost
 * to a TCP reset: a client still sending would otherwise get a reset instead of the answer.
 */
export function drainRequest(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MAX_MS);
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}
