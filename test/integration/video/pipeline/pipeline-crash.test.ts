import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { firstRunKey } from '../../../helpers/spawn.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { REPO_ROOT } from '../../../helpers/repo-root.js';

const ROOT = REPO_ROOT;
const children: ChildProcess[] = [];

/** The headless server in a process group of its own, as `npm start` runs it: kill -9 hits the whole group. */
function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string; stdout: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main/headless.ts')], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, AGENT_STUDIO_DATA_DIR: dataDir, AGENT_STUDIO_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^listening (http:\/\/\S+)$/m.exec(out);
      if (m) resolve({ child, url: m[1]!, stdout: () => out });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

function renders(dataDir: string): number[] {
  const marker = path.join(dataDir, 'tmp', 'renders') + path.sep;
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

async function until<T>(fn: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(() => {
  for (const c of children) {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe('crash recovery (kill -9 of the server process group mid-render)', () => {
  it('every generation ends once, refunds happen once, the ledger adds up, no ffmpeg is left', async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ jobs: { renderConcurrency: 1 } }));
    const first = await startServer(dataDir);
    const key = firstRunKey(first);
    const api = (url: string, p: string, init: RequestInit = {}) =>
      fetch(url + p, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
      });

    const r = await api(first.url, '/api/templates/text-to-video-pro-1080p/generate', {
      method: 'POST',
      body: JSON.stringify({ variables: { product: 'A glass of water' }, num_videos: 2 }),
    });
    expect(r.status).toBe(200);
    const ids = ((await r.json()) as { generations: { generation_id: string }[] }).generations.map(
      (g) => g.generation_id,
    );
    // One renders (concurrency 1), the other waits in the queue.
    expect(
      (
        await until(
          () => renders(dataDir),
          (p) => p.length > 0,
          30_000,
        )
      ).length,
    ).toBeGreaterThan(0);
    // A renderer that left the group (and so survives the kill): the next start must sweep it.
    const stray = spawn(
      'ffmpeg',
      [
        '-v',
        'quiet',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc=d=600',
        '-f',
        'null',
        path.join(dataDir, 'tmp', 'renders', 'stray', 'out'),
      ],
      { detached: true, stdio: 'ignore' },
    );
    children.push(stray);

    process.kill(-first.child.pid!, 'SIGKILL');
    await until(
      () => renders(dataDir),
      (p) => p.length === 1,
      10_000,
    );
    expect(renders(dataDir)).toEqual([stray.pid]);

    const second = await startServer(dataDir);
    expect(
      await until(
        () => renders(dataDir).includes(stray.pid!),
        (alive) => !alive,
        10_000,
      ),
    ).toBe(false);
    const statuses = await until(
      () =>
        Promise.all(
          ids.map(
            async (id) =>
              ((await (await api(second.url, `/api/generations/${id}`)).json()) as { status: string }).status,
          ),
        ),
      (st) => st.every((x) => x !== 'generating'),
      120_000,
    );
    expect(statuses).toEqual(['completed', 'completed']);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
    expect(renders(dataDir)).toEqual([]);

    const db = new Database(path.join(dataDir, 'agent-studio.db'), { readonly: true });
    try {
      const jobs = db.prepare("SELECT ref_id, status, attempts FROM jobs WHERE kind = 'render_generation'").all() as {
        ref_id: string;
        status: string;
        attempts: number;
      }[];
      expect(jobs.map((j) => j.status)).toEqual(['done', 'done']);
      expect(Math.max(...jobs.map((j) => j.attempts))).toBe(2);
      const ledger = db.prepare('SELECT amount, kind, ref FROM credit_ledger').all() as {
        amount: number;
        kind: string;
        ref: string | null;
      }[];
      const gens = db.prepare('SELECT credits_charged, credits_refunded FROM generations').all() as {
        credits_charged: number;
        credits_refunded: number;
      }[];
      const grants = ledger.filter((e) => e.kind === 'grant').reduce((a, e) => a + e.amount, 0);
      const balance = ledger.reduce((a, e) => a + e.amount, 0);
      const net = gens.reduce((a, g) => a + g.credits_charged - g.credits_refunded, 0);
      expect(balance).toBe(grants - net);
      expect(ledger.filter((e) => e.kind === 'refund')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('two servers on one data dir: when the one rendering is killed -9, the other finishes the job, no restart', async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ jobs: { renderConcurrency: 1 } }));
    const first = await startServer(dataDir);
    const key = firstRunKey(first);
    const second = await startServer(dataDir);
    const api = (url: string, p: string, body?: unknown) =>
      fetch(url + p, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // A render of some seconds, so it is still running when its server is killed.
    const t = await api(first.url, '/api/templates', {
      title: 'Twenty seconds',
      category: 'text-to-video',
      duration_sec: 20,
      resolution: '1080p',
      input_variables: [{ key: 'scene', label: 'Scene', type: 'text', required: true }],
      prompt_template: '{{scene}}',
    });
    const templateId = ((await t.json()) as { id: string }).id;
    const g = await api(first.url, `/api/templates/${templateId}/generate`, { variables: { scene: 'A harbour' } });
    expect(g.status).toBe(200);
    const id = ((await g.json()) as { generations: { generation_id: string }[] }).generations[0].generation_id;

    const db = new Database(path.join(dataDir, 'agent-studio.db'), { readonly: true });
    try {
      const job = () =>
        db
          .prepare("SELECT status, locked_by, attempts FROM jobs WHERE ref_id = ? AND kind = 'render_generation'")
          .get(id) as { status: string; locked_by: string | null; attempts: number };
      const owner = await until(
        () => (job().status === 'running' && renders(dataDir).length > 0 ? job().locked_by : null),
        (v) => v !== null,
        60_000,
      );
      const ownerPid = Number(owner!.split(':')[0]);
      const [killed, survivor] = ownerPid === first.child.pid ? [first, second] : [second, first];
      expect([first.child.pid, second.child.pid]).toContain(ownerPid);
      process.kill(-killed.child.pid!, 'SIGKILL');

      const status = await until(
        async () => ((await (await api(survivor.url, `/api/generations/${id}`)).json()) as { status: string }).status,
        (st) => st !== 'generating',
        120_000,
      );
      expect(status).toBe('completed');
      expect(job()).toMatchObject({ status: 'done', attempts: 2, locked_by: null });
      const gen = db.prepare('SELECT credits_charged, credits_refunded FROM generations WHERE id = ?').get(id) as {
        credits_charged: number;
        credits_refunded: number;
      };
      expect(gen.credits_charged).toBeGreaterThan(0);
      expect(gen.credits_refunded).toBe(0);
      const charges = db
        .prepare("SELECT COUNT(*) AS n FROM credit_ledger WHERE ref = ? AND kind = 'charge'")
        .get(id) as {
        n: number;
      };
      expect(charges.n).toBe(1);
    } finally {
      db.close();
      for (const s of [first, second]) {
        try {
          process.kill(-s.child.pid!, 'SIGTERM');
        } catch {
          // the killed one is gone
        }
      }
    }
  });

  it.runIf(process.platform === 'linux')(
    'a render dies with the server even when only the server is killed -9',
    async () => {
      const dataDir = tempDir();
      const server = await startServer(dataDir);
      const key = firstRunKey(server);
      const api = (p: string, body: unknown) =>
        fetch(server.url + p, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      // A long 1080p render (tens of seconds here), so ffmpeg is still busy long after the kill.
      const t = await api('/api/templates', {
        title: 'Long',
        category: 'text-to-video',
        duration_sec: 60,
        resolution: '1080p',
        input_variables: [{ key: 'scene', label: 'Scene', type: 'text', required: true }],
        prompt_template: '{{scene}}',
      });
      const templateId = ((await t.json()) as { id: string }).id;
      expect((await api(`/api/templates/${templateId}/generate`, { variables: { scene: 'A long shot' } })).status).toBe(
        200,
      );
      expect(
        (
          await until(
            () => renders(dataDir),
            (p) => p.length > 0,
            30_000,
          )
        ).length,
      ).toBeGreaterThan(0);
      process.kill(server.child.pid!, 'SIGKILL'); // the server alone, not its process group
      expect(
        await until(
          () => renders(dataDir),
          (p) => p.length === 0,
          3_000,
        ),
      ).toEqual([]);
    },
  );
});
