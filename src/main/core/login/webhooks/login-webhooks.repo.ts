import type { Db } from '../../db/database.js';

export interface EndpointRow {
  org_id: string;
  /** Sealed (LoginWebhookSealer). */
  url: string;
  created_at: number;
  updated_at: number;
}

/**
 * The organization's login webhook URL (table login_webhooks, migration 0015). Its deliveries are core/webhooks' (one
 * table for every kind, migration 0023). Only login/webhooks uses it.
 */
export class LoginWebhooksRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      endpoint: db.prepare('SELECT * FROM login_webhooks WHERE org_id = ?'),
      hasEndpoint: db.prepare('SELECT 1 FROM login_webhooks WHERE org_id = ?'),
      putEndpoint: db.prepare(
        `INSERT INTO login_webhooks (org_id, url, created_at, updated_at) VALUES (@org_id, @url, @now, @now)
         ON CONFLICT (org_id) DO UPDATE SET url = excluded.url, updated_at = excluded.updated_at`,
      ),
      deleteEndpoint: db.prepare('DELETE FROM login_webhooks WHERE org_id = ?'),
    };
  }

  endpoint(orgId: string): EndpointRow | undefined {
    return this.stmts.endpoint.get(orgId) as EndpointRow | undefined;
  }

  /** Whether the organization has a login webhook (no secret store needed: events without one cost nothing). */
  hasEndpoint(orgId: string): boolean {
    return this.stmts.hasEndpoint.get(orgId) !== undefined;
  }

  putEndpoint(orgId: string, sealedUrl: string, now: number): void {
    this.stmts.putEndpoint.run({ org_id: orgId, url: sealedUrl, now });
  }

  deleteEndpoint(orgId: string): boolean {
    return this.stmts.deleteEndpoint.run(orgId).changes === 1;
  }
}
