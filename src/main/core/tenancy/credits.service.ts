import type { Db } from '../db/database.js';
import { AppError } from '../errors.js';

export interface LedgerEntry {
  id: number;
  org_id: string;
  amount: number;
  kind: 'grant' | 'charge' | 'refund';
  ref: string | null;
  note: string | null;
  created_at: number;
}

/**
 * Per-org credit balance over an append-only ledger. better-sqlite3 runs each transaction to the
 * end on the one JS thread, and IMMEDIATE transactions lock out other processes (the CLI), so a
 * check-then-charge can never interleave: the balance never goes negative.
 */
export class CreditsService {
  constructor(private readonly deps: { db: Db }) {}

  balance(orgId: string): number {
    const row = this.deps.db
      .prepare('SELECT COALESCE(SUM(amount), 0) AS b FROM credit_ledger WHERE org_id = ?')
      .get(orgId) as { b: number };
    return row.b;
  }

  grant(orgId: string, amount: number, note?: string): number {
    if (!Number.isInteger(amount) || amount <= 0)
      throw new AppError(400, 'validation_error', 'amount must be a positive whole number');
    return this.deps.db
      .transaction(() => {
        this.insert(orgId, amount, 'grant', null, note ?? null);
        return this.balance(orgId);
      })
      .immediate();
  }

  /** Charges `amount` or throws 402 insufficient_credits. `run` executes inside the same transaction. */
  charge<T>(orgId: string, amount: number, ref: string, run?: () => T): { balance: number; result: T | undefined } {
    return this.deps.db
      .transaction(() => {
        const before = this.balance(orgId);
        if (before < amount) {
          throw new AppError(
            402,
            'insufficient_credits',
            `This needs ${amount} credits; the organization has ${before}.`,
            {
              required: amount,
              balance: before,
            },
          );
        }
        if (amount > 0) this.insert(orgId, -amount, 'charge', ref, null);
        const result = run?.();
        return { balance: before - amount, result };
      })
      .immediate();
  }

  refund(orgId: string, amount: number, ref: string, note?: string): void {
    if (amount > 0) this.insert(orgId, amount, 'refund', ref, note ?? null);
  }

  ledger(orgId: string, limit = 100): LedgerEntry[] {
    return this.deps.db
      .prepare('SELECT * FROM credit_ledger WHERE org_id = ? ORDER BY id DESC LIMIT ?')
      .all(orgId, limit) as LedgerEntry[];
  }

  private insert(orgId: string, amount: number, kind: LedgerEntry['kind'], ref: string | null, note: string | null) {
    this.deps.db
      .prepare('INSERT INTO credit_ledger (org_id, amount, kind, ref, note, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(orgId, amount, kind, ref, note, Date.now());
  }
}
