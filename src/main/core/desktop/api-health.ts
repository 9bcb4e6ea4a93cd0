// Whether the agents' API really answers: GET /healthz over HTTP on its address, from outside the core
// (the window's own calls go in process and would succeed with the server gone). Plain Node.
import { API_ROUTES } from '../../../shared/api/index.js';
import http from 'node:http';
import type { ApiStatus } from '../../../shared/desktop-admin.schema.js';

export const HEALTH_TIMEOUT_MS = 2000;

/** Why a connection failed, in plain words. */
function reasonOf(err: NodeJS.ErrnoException, where: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `Nothing is listening on ${where} (connection refused).`;
    case 'ECONNRESET':
      return `${where} closed the connection without answering.`;
    case 'EADDRNOTAVAIL':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return `${where} cannot be reached (${err.code}).`;
    default:
      return `The request to ${where} failed: ${err.message}`;
  }
}

/** GET `<url>/healthz`; `up` only on a 200 from this app's server. Never throws. */
export function checkApiHealth(url: string, timeoutMs = HEALTH_TIMEOUT_MS): Promise<ApiStatus> {
  const checked = (state: ApiStatus['state'], message: string | null): ApiStatus => ({
    state,
    url,
    message,
    checked_at: Date.now(),
  });
  let target: URL;
  try {
    target = new URL(API_ROUTES.health.path, url);
  } catch {
    return Promise.resolve(checked('down', `${url} is not an address.`));
  }
  const where = target.host;
  return new Promise((resolve) => {
    const req = http.get(target, { timeout: timeoutMs, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (body.length < 4096) body += chunk;
      });
      res.on('error', (err) => resolve(checked('down', reasonOf(err, where))));
      res.on('end', () => {
        if (res.statusCode !== 200) return resolve(checked('down', `${where} answered ${res.statusCode}.`));
        let ok = false;
        try {
          ok = (JSON.parse(body) as { status?: unknown }).status === 'ok';
        } catch {
          ok = false;
        }
        resolve(ok ? checked('up', null) : checked('down', `${where} answers, but it is not Agent Studio's API.`));
      });
    });
    req.on('timeout', () => {
      req.destroy();
      resolve(checked('down', `${where} did not answer within ${timeoutMs / 1000} s.`));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(checked('down', reasonOf(err, where))));
  });
}
