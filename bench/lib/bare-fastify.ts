// The floor the cached path is compared with: a bare Fastify server, in its own process like the real one, answering
// each route with the exact bytes the real server answered (read from the JSON file named by argv[2]:
// [{method, url, contentType, body}]). No auth, no validation, no logging. Prints `listening <url>`.
// argv[3], when given: µs of busy work per answer (the floor of a server whose own work costs that much).
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

interface CannedRoute {
  method: 'GET' | 'POST';
  url: string;
  contentType: string;
  body: string;
}

const routes = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as CannedRoute[];
const workNs = BigInt(Math.round(Number(process.argv[3] ?? 0) * 1000));
/** Spins for workNs: CPU work of a known cost that allocates nothing (so no garbage collection is added). */
function work(): void {
  if (!workNs) return;
  const end = process.hrtime.bigint() + workNs;
  while (process.hrtime.bigint() < end);
}
const app = Fastify({ logger: false });
for (const r of routes)
  app.route({
    method: r.method,
    url: r.url,
    handler: (_req, reply) => {
      work();
      return reply.type(r.contentType).send(r.body);
    },
  });
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening http://127.0.0.1:${(app.server.address() as AddressInfo).port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
