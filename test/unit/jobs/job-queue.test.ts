import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/main/core/db/database.js';
import { JobQueue } from '../../../src/main/core/jobs/job-queue.js';
import type { Job, JobHandler } from '../../../src/main/core/jobs/job-types.js';
import { createLogger } from '../../../src/main/core/logger.js';
import { tempDir } from '../../helpers/temp-dir.js';

const log = createLogger(tempDir(), 'silent').log;
let queues: JobQueue[] = [];
let dbs: Db[] = [];

function setup(concurrency = { render: 1, io: 4 }, dataDir = tempDir(), leaseMs?: number, logger = log) {
  const db = openDatabase(dataDir);
  const queue = new JobQueue({ db, log: logger, concurrency, leaseMs });
  queues.push(queue);
  dbs.push(db);
  return { db, queue, dataDir };
}

afterEach(async () => {
  for (const q of queues) await q.dispose();
  for (const db of dbs) db.close();
  queues = [];
  dbs = [];
});

/** A handler whose runs wait until the test releases them. */
function gated(lane: 'render' | 'io' = 'render') {
  const started: Job[] = [];
  const finals: [string, string, string | null][] = [];
  const releases = new Map<string, (o: Awaited<ReturnType<JobHandler['run']>>) => void>();
  const waiters: (() => void)[] = [];
  const handler: JobHandler = {
    lane,
    run: (job, ctx) =>
      new Promise((resolve, reject) => {
        started.push(job);
        releases.set(job.refId, resolve);
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
        waiters.splice(0).forEach((w) => w());
      }),
    onFinal: (job, status, error) => void finals.push([job.refId, status, error]),
  };
  const untilStarted = async (n: number) => {
    while (started.length < n) await new Promise<void>((r) => waiters.push(r));
  };
  return { handler, started, finals, releases, untilStarted };
}

async function until(check: () => boolean) {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

describe('job queue', () => {
  it('runs jobs in order with at most N per lane at once; each finishes once', async () => {
    const { queue } = setup({ render: 1, io: 4 });
    const g = gated('render');
    queue.register('render_x', g.handler);
    queue.start();
    const ids = ['a', 'b', 'c'].map((refId) => queue.enqueue({ kind: 'render_x', refId, orgId: null }));
    queue.kick();
    await g.untilStarted(1);
    expect(g.started.map((j) => j.refId)).toEqual(['a']);
    expect(queue.queuePositionByRef('b', 'render_x')).toBe(1);
    expect(queue.queuePositionByRef('c', 'render_x')).toBe(2);
    g.releases.get('a')!({ status: 'done' });
    await g.untilStarted(2);
    expect(g.started.map((j) => j.refId)).toEqual(['a', 'b']);
    g.releases.get('b')!({ status: 'done' });
    await g.untilStarted(3);
    g.releases.get('c')!({ status: 'failed', error: 'boom' });
    await until(() => g.finals.length === 3);
    expect(g.finals).toEqual([
      ['a', 'done', null],
      ['b', 'done', null],
      ['c', 'failed', 'boom'],
    ]);
    expect(queue.repo.get(ids[2]!)).toMatchObject({ status: 'failed', lastError: 'boom', attempts: 1 });
  });

  it('retries after the delay a handler asks for, counting attempts', async () => {
    const { queue } = setup();
    const seen: number[] = [];
    queue.register('io_x', {
      lane: 'io',
      run: async (job) => {
        seen.push(job.attempts);
        return job.attempts < 3 ? { status: 'retry', runAfterMs: 20, error: 'try later' } : { status: 'done' };
      },
    });
    queue.start();
    const id = queue.enqueue({ kind: 'io_x', refId: 'r', orgId: null });
    queue.kick();
    await until(() => queue.repo.get(id)?.status === 'done');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('a time-out aborts the work and fails the job', async () => {
    const { queue } = setup();
    const g = gated('io');
    queue.register('slow', { ...g.handler, timeoutMs: 50 });
    queue.start();
    const id = queue.enqueue({ kind: 'slow', refId: 's', orgId: null });
    queue.kick();
    await until(() => g.finals.length === 1);
    expect(g.finals[0]).toEqual(['s', 'failed', 'Timed out after 0.05 s.']);
    expect(queue.repo.get(id)?.status).toBe('failed');
  });

  it('cancel: a queued job never runs, a running one is aborted; both end canceled once', async () => {
    const { queue } = setup({ render: 1, io: 1 });
    const g = gated('render');
    queue.register('render_x', g.handler);
    queue.start();
    queue.enqueue({ kind: 'render_x', refId: 'running', orgId: null });
    queue.enqueue({ kind: 'render_x', refId: 'waiting', orgId: null });
    queue.kick();
    await g.untilStarted(1);
    expect(queue.cancelByRef('waiting', 'render_x')).toBe(true);
    expect(queue.cancelByRef('running', 'render_x')).toBe(true);
    await until(() => g.finals.length === 2);
    expect(g.finals.map(([ref, status]) => [ref, status]).sort()).toEqual([
      ['running', 'canceled'],
      ['waiting', 'canceled'],
    ]);
    expect(g.started.map((j) => j.refId)).toEqual(['running']);
    expect(queue.cancelByRef('running', 'render_x')).toBe(false);
  });

  it('after a crash, work a dead process left running runs again; too many interruptions fail it', async () => {
    const dataDir = tempDir();
    const first = setup({ render: 1, io: 1 }, dataDir);
    const g1 = gated('render');
    first.queue.register('render_x', g1.handler);
    first.queue.start();
    const id = first.queue.enqueue({ kind: 'render_x', refId: 'job', orgId: null });
    first.queue.kick();
    await g1.untilStarted(1);
    // A process that died: its claim names a pid that is not running.
    first.db.prepare("UPDATE jobs SET locked_by = '999999:dead' WHERE id = ?").run(id);
    const second = setup({ render: 1, io: 1 }, dataDir);
    const g2 = gated('render');
    second.queue.register('render_x', g2.handler);
    second.queue.start();
    await g2.untilStarted(1);
    expect(g2.started[0]?.attempts).toBe(2);
    g2.releases.get('job')!({ status: 'done' });
    await until(() => g2.finals.length === 1);
    expect(g2.finals[0]).toEqual(['job', 'done', null]);

    const other = second.queue.enqueue({ kind: 'render_x', refId: 'stuck', orgId: null });
    second.db
      .prepare("UPDATE jobs SET status = 'running', attempts = 3, locked_by = '999999:dead' WHERE id = ?")
      .run(other);
    const third = setup({ render: 1, io: 1 }, dataDir);
    const g3 = gated('render');
    third.queue.register('render_x', g3.handler);
    third.queue.start();
    await until(() => g3.finals.length === 1);
    expect(g3.finals[0]).toEqual(['stuck', 'failed', 'stopped after 3 interrupted attempts']);
  });

  it('a running queue takes over what a dead process left running, without a restart', async () => {
    const dataDir = tempDir();
    const first = setup({ render: 1, io: 1 }, dataDir, 300);
    const g1 = gated('render');
    first.queue.register('render_x', g1.handler);
    const second = setup({ render: 1, io: 1 }, dataDir, 300);
    const g2 = gated('render');
    second.queue.register('render_x', g2.handler);
    second.queue.start(); // running, and idle: nothing is queued yet
    first.queue.start();
    const id = first.queue.enqueue({ kind: 'render_x', refId: 'job', orgId: null });
    first.queue.kick();
    await g1.untilStarted(1);
    // The process that claimed it died (its claim names a pid that is not running).
    first.db.prepare("UPDATE jobs SET locked_by = '999999:dead' WHERE id = ?").run(id);
    await g2.untilStarted(1);
    expect(g2.started[0]).toMatchObject({ refId: 'job', attempts: 2 });
    g2.releases.get('job')!({ status: 'done' });
    await until(() => g2.finals.length === 1);
    expect(g2.finals).toEqual([['job', 'done', null]]);
  });

  it("a lease that ran out (a stuck owner) is taken over; the old attempt's late outcome changes nothing", async () => {
    const dataDir = tempDir();
    // what the old owner says when its outcome comes too late (the test waits for it, not for a clock)
    const dropped: string[] = [];
    const listening = Object.assign(Object.create(log) as typeof log, {
      warn: (_obj: object, msg: string) => void dropped.push(msg),
    });
    const stuck = setup({ render: 1, io: 1 }, dataDir, 300, listening);
    const g1 = gated('render');
    stuck.queue.register('render_x', g1.handler);
    stuck.queue.start();
    const id = stuck.queue.enqueue({ kind: 'render_x', refId: 'job', orgId: null });
    stuck.queue.kick();
    await g1.untilStarted(1);
    // Held by a live process that stopped renewing (another process of this machine, hung): the lease is past.
    stuck.db
      .prepare(`UPDATE jobs SET locked_by = '${process.ppid}:hung', locked_until = ? WHERE id = ?`)
      .run(Date.now() - 1, id);
    const taker = setup({ render: 1, io: 1 }, dataDir, 300);
    const g2 = gated('render');
    taker.queue.register('render_x', g2.handler);
    taker.queue.start();
    await g2.untilStarted(1);
    // the old attempt ends late: its outcome is dropped, the job stays the new attempt's
    g1.releases.get('job')!({ status: 'failed', error: 'late' });
    await until(() => dropped.length === 1);
    expect(dropped).toEqual(['job was taken over while it ran: this outcome is dropped']);
    expect(taker.queue.repo.get(id)).toMatchObject({ status: 'running', attempts: 2 });
    expect(g1.finals).toEqual([]);
    g2.releases.get('job')!({ status: 'done' });
    await until(() => g2.finals.length === 1);
    expect(taker.queue.repo.get(id)).toMatchObject({ status: 'done', lastError: null });
    expect([...g1.finals, ...g2.finals]).toEqual([['job', 'done', null]]);
  });

  it('a live owner renews its lease while it works', async () => {
    const { queue, db } = setup({ render: 1, io: 1 }, tempDir(), 300);
    const g = gated('render');
    queue.register('render_x', g.handler);
    queue.start();
    const id = queue.enqueue({ kind: 'render_x', refId: 'job', orgId: null });
    queue.kick();
    await g.untilStarted(1);
    const lease = () => (db.prepare('SELECT locked_until AS t FROM jobs WHERE id = ?').get(id) as { t: number }).t;
    const first = lease();
    await until(() => lease() > first);
    expect(queue.repo.get(id)?.status).toBe('running');
  });

  it('a job claimed by another live process is left alone', async () => {
    const { queue, db } = setup();
    const g = gated('render');
    queue.register('render_x', g.handler);
    const id = queue.enqueue({ kind: 'render_x', refId: 'theirs', orgId: null });
    db.prepare(
      `UPDATE jobs SET status = 'running', attempts = 1, locked_by = '${process.ppid}:other' WHERE id = ?`,
    ).run(id);
    queue.start();
    await new Promise((r) => setImmediate(r));
    expect(queue.repo.get(id)?.status).toBe('running');
    expect(g.started).toEqual([]);
  });

  it('a shutdown gives the running attempt back to the queue, uncounted', async () => {
    const { queue } = setup();
    const g = gated('render');
    queue.register('render_x', g.handler);
    queue.start();
    const id = queue.enqueue({ kind: 'render_x', refId: 'r', orgId: null });
    queue.kick();
    await g.untilStarted(1);
    await queue.dispose();
    expect(queue.repo.get(id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(g.finals).toEqual([]);
  });

  it('keeps what a handler saves for the next attempt', async () => {
    const { queue } = setup();
    const payloads: unknown[] = [];
    queue.register('io_x', {
      lane: 'io',
      run: async (job, ctx) => {
        payloads.push({ ...job.payload });
        if (job.attempts === 1) {
          ctx.savePayload({ externalId: 'req-1' });
          return { status: 'retry', runAfterMs: 0 };
        }
        return { status: 'done' };
      },
    });
    queue.start();
    const id = queue.enqueue({ kind: 'io_x', refId: 'r', orgId: null, payload: { a: 1 } });
    queue.kick();
    await until(() => queue.repo.get(id)?.status === 'done');
    expect(payloads).toEqual([{ a: 1 }, { a: 1, externalId: 'req-1' }]);
  });
});
