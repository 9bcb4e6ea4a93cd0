import type { SavedLogin, SavedLoginSecret, SavedPasskey } from '../../../../shared/credentials.schema.js';
import type { Db } from '../../db/database.js';

/** A saved login's metadata with its organization (answers never show `orgId`). Never a secret. */
export interface StoredSavedLogin extends SavedLogin {
  orgId: string;
}

interface Row {
  id: string;
  org_id: string;
  label: string;
  login_url: string;
  origins: string;
  login_method: string;
  username: string;
  secrets: string;
  additional_field_names: string;
  passkeys: string;
  mailbox_id: string | null;
  phone: string | null;
  share_with: string;
  source: SavedLogin['source'];
  created_at: number;
  updated_at: number;
  last_used_at: number | null;
}

function fromRow(r: Row): StoredSavedLogin {
  return {
    id: r.id,
    orgId: r.org_id,
    label: r.label,
    loginUrl: r.login_url,
    origins: JSON.parse(r.origins) as string[],
    loginMethod: r.login_method,
    username: r.username,
    secrets: JSON.parse(r.secrets) as SavedLoginSecret[],
    additionalFieldNames: JSON.parse(r.additional_field_names) as string[],
    passkeys: JSON.parse(r.passkeys) as SavedPasskey[],
    mailboxId: r.mailbox_id,
    phone: r.phone,
    shareWith: JSON.parse(r.share_with) as SavedLogin['shareWith'],
    source: r.source,
    created_at: r.created_at,
    updated_at: r.updated_at,
    last_used_at: r.last_used_at,
  };
}

function toRow(s: StoredSavedLogin): Row {
  return {
    id: s.id,
    org_id: s.orgId,
    label: s.label,
    login_url: s.loginUrl,
    origins: JSON.stringify(s.origins),
    login_method: s.loginMethod,
    username: s.username,
    secrets: JSON.stringify(s.secrets),
    additional_field_names: JSON.stringify(s.additionalFieldNames),
    passkeys: JSON.stringify(s.passkeys),
    mailbox_id: s.mailboxId,
    phone: s.phone,
    share_with: JSON.stringify(s.shareWith),
    source: s.source,
    created_at: s.created_at,
    updated_at: s.updated_at,
    last_used_at: s.last_used_at,
  };
}

const COLUMNS = Object.keys(toRow({} as StoredSavedLogin)) as (keyof Row)[];

/** The only owner of the `saved_logins` table. Labels are unique per organization, case-insensitively. */
export class SavedLoginsRepo {
  private readonly byId;
  private readonly byLabel;
  private readonly touchRow;

  constructor(private readonly db: Db) {
    this.byId = db.prepare('SELECT * FROM saved_logins WHERE org_id = ? AND id = ?');
    this.byLabel = db.prepare('SELECT * FROM saved_logins WHERE org_id = ? AND label = ?');
    this.touchRow = db.prepare('UPDATE saved_logins SET last_used_at = ? WHERE id = ?');
  }

  insert(s: StoredSavedLogin): void {
    this.db
      .prepare(`INSERT INTO saved_logins (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`)
      .run(toRow(s));
  }

  /** Writes every column but the id, organization and creation time. */
  update(s: StoredSavedLogin): boolean {
    const sets = COLUMNS.filter((c) => c !== 'id' && c !== 'org_id' && c !== 'created_at').map((c) => `${c} = @${c}`);
    return (
      this.db.prepare(`UPDATE saved_logins SET ${sets.join(', ')} WHERE id = @id AND org_id = @org_id`).run(toRow(s))
        .changes > 0
    );
  }

  list(orgId: string): StoredSavedLogin[] {
    return (this.db.prepare('SELECT * FROM saved_logins WHERE org_id = ? ORDER BY label').all(orgId) as Row[]).map(
      fromRow,
    );
  }

  /** By id, or else by label (case-insensitive), within the organization. */
  find(orgId: string, idOrLabel: string): StoredSavedLogin | null {
    const row = (this.byId.get(orgId, idOrLabel) ?? this.byLabel.get(orgId, idOrLabel)) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  labelTaken(orgId: string, label: string, exceptId?: string): boolean {
    return !!this.db
      .prepare('SELECT 1 FROM saved_logins WHERE org_id = ? AND label = ? AND id IS NOT ?')
      .get(orgId, label, exceptId ?? null);
  }

  touch(id: string, at: number): void {
    this.touchRow.run(at, id);
  }

  delete(orgId: string, id: string): boolean {
    return this.db.prepare('DELETE FROM saved_logins WHERE id = ? AND org_id = ?').run(id, orgId).changes > 0;
  }
}
