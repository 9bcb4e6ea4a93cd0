// A route's success status is its table entry's (successStatus: the lowest documented 2xx), applied when the route is
// registered: handlers return the body and write no 201/202/204 of their own, except where one chooses between two
// documented successes (issue 41: twenty handlers restated what their entry already said).
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerRoutes, type RouteHandlers } from '../../../src/main/core/http/route.js';
import { API_ROUTES, successStatus, type ApiRoute } from '../../../src/shared/api/index.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const CORE = path.join(REPO_ROOT, 'src/main/core');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** The handlers that pick one of two documented successes, by file: the route and the status they choose. */
const CHOSEN: Record<string, { route: ApiRoute; status: number }> = {
  'login/login.routes.ts': { route: API_ROUTES.login, status: 202 }, // async login or Prefer: respond-async
  'video/uploads/local-store-http.ts': { route: API_ROUTES.getFile, status: 206 }, // a Range request
};

describe('success statuses from the route entries', () => {
  it('registration answers with the entry’s status when the handler returns a body or nothing', async () => {
    const app = Fastify();
    const handlers = {
      replayWebhook: () => ({ id: 'd1' }),
      deleteLoginWebhook: () => undefined,
      cancelLogin: async () => undefined,
    } as unknown as RouteHandlers;
    registerRoutes(app, handlers, (r) =>
      [API_ROUTES.replayWebhook, API_ROUTES.deleteLoginWebhook, API_ROUTES.cancelLogin].includes(r as never),
    );
    const replay = await app.inject({ method: 'POST', url: '/api/generations/g1/webhooks/replay' });
    expect(replay.statusCode).toBe(successStatus(API_ROUTES.replayWebhook));
    expect(replay.json()).toEqual({ id: 'd1' });
    const removed = await app.inject({ method: 'DELETE', url: '/api/webhooks/login' });
    expect(removed.statusCode).toBe(successStatus(API_ROUTES.deleteLoginWebhook));
    expect(removed.body).toBe('');
    const cancelled = await app.inject({ method: 'POST', url: '/api/login/l1/cancel' });
    expect(cancelled.statusCode).toBe(successStatus(API_ROUTES.cancelLogin));
    await app.close();
  });

  it('no handler in the core sets a 2xx, but the two that choose between documented ones', () => {
    const found: string[] = [];
    for (const file of sourceFiles(CORE)) {
      const rel = path.relative(CORE, file).split(path.sep).join('/');
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/\.(?:status|code)\((2\d\d)\)/g)) {
        found.push(`${rel} ${m[1]}`);
      }
    }
    expect(found.sort()).toEqual(
      Object.entries(CHOSEN)
        .map(([rel, { status }]) => `${rel} ${status}`)
        .sort(),
    );
    for (const { route, status } of Object.values(CHOSEN)) {
      expect(Object.keys(route.responses)).toContain(String(status));
      expect(successStatus(route)).not.toBe(status);
    }
  });
});
