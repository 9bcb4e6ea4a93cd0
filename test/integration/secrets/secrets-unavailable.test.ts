// A secret store that cannot be read (here: secrets.key replaced, so the file no longer decrypts) is a 503 in the
// documented shape on every route that needs a secret, never a 500, and nothing is charged.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/main/core/config/load-config.js';
import { createCore } from '../../../src/main/core/create-core.js';
import type { Db } from '../../../src/main/core/db/database.js';
import { startServer, type RunningServer } from '../../../src/main/core/run-server.js';
import { startTestServer, tempDir } from '../../helpers/test-server.js';

describe('routes while the secret store is unreadable', () => {
  const dataDir = tempDir();
  let server: RunningServer;
  let db: Db;
  const request = (pathname: string, key: string, json?: unknown) =>
    fetch(server.url + pathname, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
  let orgKey: string;
  let orgId: string;

  beforeAll(async () => {
    // A first run stores a secret in the encrypted file (the session-cache key), then the key file is replaced.
    const first = await startTestServer({ dataDir, secrets: { backend: 'file' } }, { credits: 1000 });
    await first.core.secrets.set('probe', 'a stored secret');
    ({ key: orgKey, orgId } = first);
    await first.close();
    fs.writeFileSync(path.join(dataDir, 'secrets.key'), `${crypto.randomBytes(32).toString('base64')}\n`);
    const core = createCore(parseConfig({ dataDir, secrets: { backend: 'file' }, server: { port: 0 } }));
    db = core.db;
    server = await startServer(core, { port: 0 });
  });
  afterAll(() => server?.close());

  it('generate with a webhook_url: 503 secrets_unavailable in the video shape, nothing charged', async () => {
    const before = await request('/api/credits', orgKey).then((r) => r.json());
    const res = await request('/api/templates/text-to-video-cinematic/generate', orgKey, {
      variables: { scene: 'A lighthouse on a cliff at dusk' },
      webhook_url: 'http://127.0.0.1:9/hook',
    });
    expect(res.status).toBe(503);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'message']);
    expect(body.error).toBe('secrets_unavailable');
    expect(body.message).toMatch(/does not decrypt/);
    const after = await request('/api/credits', orgKey).then((r) => r.json());
    expect(after.balance).toBe(before.balance);
    expect(db.prepare('SELECT COUNT(*) AS n FROM generations WHERE org_id = ?').get(orgId)).toEqual({ n: 0 });
  });

  it('a login: 503 SECRETS_UNAVAILABLE in the login-service shape', async () => {
    const res = await request('/api/login', orgKey, {
      cred: { username: 'a', password: 'b' },
      domain: 'http://127.0.0.1:9/login',
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe('SECRETS_UNAVAILABLE');
  });
});
