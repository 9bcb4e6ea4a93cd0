// The floor the cached path is compared with: a bare Fastify server, in its own process like the real one, answering
// each route with the exact bytes the real server answered (read from the JSON file named by argv[2]:
// [{method, url, contentType, body}]). No auth, no validation, no logging. Prints `listening <url>`.
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
const app = Fastify({ logger: false });
for (const r of routes)
  app.route({ method: r.method, url: r.url, handler: (_req, reply) => reply.type(r.contentType).send(r.body) });
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening http://127.0.0.1:${(app.server.address() as AddressInfo).port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
