import type { Db } from '../db/database.js';
import { newId } from '../ids.js';
import type { Job, JobLane, JobStatus } from './job-types.js';

/** A row of `jobs` (the only module that reads or writes that table). */
interface JobRow {
  id: string;
  kind: string;
  ref_id: string;
  org_id: string | null;
  status: JobStatus;
  lane: JobLane;
  attempts: number;
  payload: string | null;
  run_after: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface JobRecord extends Job {
  runAfter: number;
  lockedBy: string | null;
  /** The running attempt's lease: its owner renews it while it works; once past, another process may take the job. */
  leaseUntil: number | null;
  lastError: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

function toRecord(row: JobRow): JobRecord {
  let payload: Record<string, unknown> = {};
  try {
    payload = row.payload ? (JSON.parse(row.payload) as Record<string, unknown>) : {};
  } catch {
    payload = {};
  }
  return {
    id: row.id,
    kind: row.kind,
    refId: row.ref_id,
    orgId: row.org_id,
    status: row.status,
    lane: row.lane,
    attempts: row.attempts,
    payload,
    runAfter: row.run_after,
    lockedBy: row.locked_by,
    leaseUntil: row.locked_until,
    lastError: row.last_error,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

export class JobsRepo {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO jobs (id, kind, ref_id, org_id, status, lane, attempts, payload, run_after, created_at, updated_at)
         VALUES (@id, @kind, @refId, @orgId, 'queued', @lane, 0, @payload, @runAfter, @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM jobs WHERE id = ?'),
      byRef: db.prepare('SELECT * FROM jobs WHERE ref_id = ? AND kind = ? ORDER BY created_at DESC, rowid DESC'),
      due: db.prepare(
        `SELECT * FROM jobs WHERE status = 'queued' AND lane = ? AND run_after <= ?
         ORDER BY run_after, created_at, rowid LIMIT ?`,
      ),
      nextRunAfter: db.prepare("SELECT MIN(run_after) AS t FROM jobs WHERE status = 'queued'"),
      claim: db.prepare(
        `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = @owner, locked_until = @leaseUntil,
           started_at = @now, updated_at = @now
         WHERE id = @id AND status = 'queued'`,
      ),
      // @holder: the running attempt's owner, or null for any (a queued job, a cancel). A holder whose job was taken
      // over (its lease ran out) changes nothing: the attempt that holds the job now decides.
      finish: db.prepare(
        `UPDATE jobs SET status = @status, last_error = @error, locked_by = NULL, locked_until = NULL,
           finished_at = @now, updated_at = @now
         WHERE id = @id AND status IN ('queued', 'running') AND (@holder IS NULL OR locked_by = @holder)`,
      ),
      requeue: db.prepare(
        `UPDATE jobs SET status = 'queued', run_after = @runAfter, last_error = @error, locked_by = NULL,
           locked_until = NULL, updated_at = @now
         WHERE id = @id AND status = 'running' AND locked_by IS @holder`,
      ),
      giveBackAttempt: db.prepare(
        `UPDATE jobs SET status = 'queued', attempts = MAX(0, attempts - 1), locked_by = NULL, locked_until = NULL,
           updated_at = @now
         WHERE id = @id AND status = 'running' AND locked_by = @holder`,
      ),
      renew: db.prepare("UPDATE jobs SET locked_until = @leaseUntil WHERE status = 'running' AND locked_by = @owner"),
      savePayload: db.prepare('UPDATE jobs SET payload = @payload, updated_at = @now WHERE id = @id'),
      running: db.prepare("SELECT * FROM jobs WHERE status = 'running'"),
      queuePosition: db.prepare(
        `SELECT COUNT(*) AS n FROM jobs j, jobs me WHERE me.id = ? AND j.status = 'queued' AND j.lane = me.lane
         AND (j.run_after < me.run_after OR (j.run_after = me.run_after AND (j.created_at < me.created_at
              OR (j.created_at = me.created_at AND j.rowid <= me.rowid))))`,
      ),
      deleteFinishedBefore: db.prepare(
        "DELETE FROM jobs WHERE status IN ('done', 'failed', 'canceled') AND updated_at < ?",
      ),
    };
  }

  insert(job: { kind: string; refId: string; orgId: string | null; lane: JobLane; payload: object; runAfter: number }) {
    const id = newId('job');
    const now = Date.now();
    this.s.insert.run({ id, now, ...job, payload: JSON.stringify(job.payload) });
    return id;
  }

  get(id: string): JobRecord | null {
    const row = this.s.get.get(id) as JobRow | undefined;
    return row ? toRecord(row) : null;
  }

  /** The newest first. */
  byRef(refId: string, kind: string): JobRecord[] {
    return (this.s.byRef.all(refId, kind) as JobRow[]).map(toRecord);
  }

  due(lane: JobLane, now: number, limit: number): JobRecord[] {
    return (this.s.due.all(lane, now, limit) as JobRow[]).map(toRecord);
  }

  nextRunAfter(): number | null {
    return (this.s.nextRunAfter.get() as { t: number | null }).t;
  }

  /** queued -> running, atomically, with a lease until `leaseUntil`; false when another runner (or a cancel) got there first. */
  claim(id: string, owner: string, leaseUntil: number): boolean {
    return this.s.claim.run({ id, owner, leaseUntil, now: Date.now() }).changes === 1;
  }

  /** `holder`: the attempt's owner (null: whoever holds it, for a queued job or a cancel); false when it changed nothing. */
  finish(id: string, status: 'done' | 'failed' | 'canceled', error: string | null, holder: string | null = null) {
    return this.s.finish.run({ id, status, error, holder, now: Date.now() }).changes === 1;
  }

  requeue(id: string, runAfter: number, error: string | null, holder: string | null): boolean {
    return this.s.requeue.run({ id, runAfter, error, holder, now: Date.now() }).changes === 1;
  }

  /** An attempt cut short by a shutdown does not count. */
  giveBack(id: string, holder: string): void {
    this.s.giveBackAttempt.run({ id, holder, now: Date.now() });
  }

  /** The owner's running attempts keep their lease until `leaseUntil`. */
  renew(owner: string, leaseUntil: number): void {
    this.s.renew.run({ owner, leaseUntil });
  }

  savePayload(id: string, payload: object): void {
    this.s.savePayload.run({ id, payload: JSON.stringify(payload), now: Date.now() });
  }

  running(): JobRecord[] {
    return (this.s.running.all() as JobRow[]).map(toRecord);
  }

  /** 1 = next to run in its lane; null when the job is not queued. */
  queuePosition(id: string): number | null {
    const job = this.get(id);
    if (!job || job.status !== 'queued') return null;
    return (this.s.queuePosition.get(id) as { n: number }).n;
  }

  deleteFinishedBefore(t: number): number {
    return this.s.deleteFinishedBefore.run(t).changes;
  }
}
