import type { FixtureSite } from '../fixtures/sites/index.js';
import type { TestServer } from './test-server.js';

/** One fresh login (no cache) named by `id` through POST /api/login: its answer and its steps as they happened. */
export async function loginWithSteps(t: TestServer, id: string, site: FixtureSite, username: string, password: string) {
  const steps: string[] = [];
  const off = t.core.events.on('login.step', (e) => {
    if (e.loginId === id) steps.push(e.step);
  });
  try {
    const res = await t.request('/api/login', {
      method: 'POST',
      headers: { 'x-login-id': id },
      json: { cred: { username, password }, domain: site.loginUrl, useCache: false },
    });
    return { status: res.status, answer: await res.json(), steps, sessionId: res.headers.get('x-session-id') };
  } finally {
    off();
  }
}
