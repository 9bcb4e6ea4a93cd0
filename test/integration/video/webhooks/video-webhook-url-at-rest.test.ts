import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../src/main/core/config/load-config.js';
import { createCore } from '../../../../src/main/core/create-core.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { call, generate } from '../../../helpers/video-api.js';

/**
 * Webhook URLs carry secrets (user info, query tokens, secret paths): stored AES-256-GCM sealed,
 * shown masked. Loopback address only; nothing is sent to it by these tests.
 */
const SECRETS = { user: 'hookpass-7Rk2', token: 'tok-Hq92LxWm', path: 'path-Vn83Qe' };
const WEBHOOK = `http://hookuser:${SECRETS.user}@127.0.0.1:9/cb/${SECRETS.path}?token=${SECRETS.token}&run=7`;
const MASKED = `http://127.0.0.1:9/cb/${SECRETS.path}?token=***&run=***`;

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(dataDir?: string): Promise<TestServer> {
  const s = await startTestServer(dataDir ? { dataDir } : {}, { credits: 1000 });
  servers.push(s);
  return s;
}

/** Every file of the database (main, -wal, -shm) plus the log: none may hold a piece of the URL. */
function expectNoSecretOnDisk(dataDir: string) {
  const files = fs
    .readdirSync(dataDir)
    .filter((f) => f.startsWith('agent-studio.db'))
    .concat(path.join('logs', 'agent-studio.log'));
  expect(files).toContain('agent-studio.db');
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(dataDir, f));
    for (const [what, secret] of Object.entries(SECRETS))
      expect(bytes.includes(Buffer.from(secret)), `webhook ${what} in ${f}`).toBe(false);
  }
}

const ids = (r: { body: { generations: { generation_id: string }[] } }) =>
  r.body.generations.map((g) => g.generation_id);

describe('webhook_url at rest', () => {
  it('is sealed per generation in SQLite (and its WAL), shown masked, and readable in clear by the service', async () => {
    const s = await start();
    const r = await generate(s, 'text-to-video-cinematic', {
      variables: { scene: 'A long enough scene' },
      webhook_url: WEBHOOK,
      num_videos: 2,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [a, b] = ids(r);

    await s.core.logger.flush();
    expectNoSecretOnDisk(s.dataDir); // the WAL holds the new rows before a checkpoint
    s.core.db.pragma('wal_checkpoint(TRUNCATE)');
    expectNoSecretOnDisk(s.dataDir);

    expect((await call(s, `/api/generations/${a}`)).body.webhook_url).toBe(MASKED);
    const listed = await call(s, '/api/generations');
    expect(listed.body.data.map((g: { webhook_url: string }) => g.webhook_url)).toEqual([MASKED, MASKED]);
    expect(await s.core.video.generations.webhookUrl(a)).toBe(WEBHOOK);
    expect(await s.core.video.generations.webhookUrl(b)).toBe(WEBHOOK);

    // Each ciphertext is bound to its generation: copied onto another row it does not open.
    const stored = s.core.db.prepare('SELECT id, webhook_url FROM generations WHERE id IN (?, ?)').all(a, b) as {
      id: string;
      webhook_url: string;
    }[];
    expect(stored[0].webhook_url).not.toBe(stored[1].webhook_url);
    const sealedA = stored.find((row) => row.id === a)!.webhook_url;
    s.core.db.prepare('UPDATE generations SET webhook_url = ? WHERE id = ?').run(sealedA, b);
    await expect(s.core.video.generations.webhookUrl(b)).rejects.toThrow(/cannot be decrypted/);
    expect((await call(s, `/api/generations/${b}`)).body.webhook_url).toBeNull();
  });

  it('a generation without a webhook has none', async () => {
    const s = await start();
    const r = await generate(s, 'text-to-video-cinematic', { variables: { scene: 'A long enough scene' } });
    const [id] = ids(r);
    expect((await call(s, `/api/generations/${id}`)).body.webhook_url).toBeNull();
    expect(await s.core.video.generations.webhookUrl(id)).toBeNull();
  });

  it('URLs stored in clear by an older version are sealed at the next start', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    const r = await generate(first, 'text-to-video-cinematic', {
      variables: { scene: 'A long enough scene' },
      webhook_url: WEBHOOK,
    });
    const [id] = ids(r);
    // What a version before this change wrote: the URL itself. Plus many small rows like it, so
    // several share a page and the sweep must not leave the old text in the page's freed space.
    const db = first.core.db;
    db.prepare('UPDATE generations SET webhook_url = ? WHERE id = ?').run(WEBHOOK, id);
    const insert = db.prepare(
      `INSERT INTO generations (id, org_id, batch_id, template_id, status, inputs, model_config, webhook_url, credits_charged, created_at, updated_at)
       VALUES (?, ?, 'gbt_legacy', 't', 'failed', '{}', '{}', ?, 0, 1, 1)`,
    );
    for (let i = 0; i < 40; i++) insert.run(`gen_legacy_${i}`, first.orgId, WEBHOOK);
    // Still shown masked and readable before the sweep.
    expect((await call(first, `/api/generations/${id}`)).body.webhook_url).toBe(MASKED);
    expect(await first.core.video.generations.webhookUrl(id)).toBe(WEBHOOK);
    await servers.pop()!.close();
    const legacy = fs.readFileSync(path.join(dataDir, 'agent-studio.db'));
    expect(legacy.includes(Buffer.from(SECRETS.token))).toBe(true); // the test really set up a clear row

    // The next start (the composition root alone: the test server would add its org again).
    const restart = () => createCore(parseConfig({ dataDir, log: { level: 'info' } }));
    await restart().dispose(); // disposal waits for the start-up sweep
    expectNoSecretOnDisk(dataDir);

    const again = restart();
    try {
      expect((await again.video.generations.get(first.orgId, id)).webhook_url).toBe(MASKED);
      expect(await again.video.generations.webhookUrl(id)).toBe(WEBHOOK);
    } finally {
      await again.dispose();
    }
  });
});
