import type { SavedLogin, SavedLoginSecret, SavedPasskey } from '../../../../shared/credentials.schema.js';
import type { BrowserMode } from '../../../../shared/login-browser.schema.js';
import type { Db } from '../../db/database.js';
import { loginUrlView } from './login-url-view.js';

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
  /** Migration 0024: the saved login's browser mode, or null (the request's, else the server's). */
  browser_mode: BrowserMode | null;
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
    browser: r.browser_mode ? { mode: r.browser_mode } : null,
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
    browser_mode: s.browser?.mode ?? null,
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
  private readonly labelRow;

  constructor(private readonly db: Db) {
    this.byId = db.prepare('SELECT * FROM saved_logins WHERE org_id = ? AND id = ?');
    this.byLabel = db.prepare('SELECT * FROM saved_logins WHERE org_id = ? AND label = ?');
    this.touchRow = db.prepare('UPDATE saved_logins SET last_used_at = ? WHERE id = ?');
    // prepared once: an import checks every one of thousands of labels
    this.labelRow = db.prepare('SELECT 1 FROM saved_logins WHERE org_id = ? AND label = ? AND id IS NOT ?');
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

  /** Every organization's saved logins whose login page has a query or fragment in the row (an older version's). */
  withQueryOrFragment(): StoredSavedLogin[] {
    return (
      this.db
        .prepare("SELECT * FROM saved_logins WHERE instr(login_url, '?') > 0 OR instr(login_url, '#') > 0")
        .all() as Row[]
    ).map(fromRow);
  }

  /** The saved login kept by `storeCredentials` for this login page (compared masked) and username, if any. */
  keptBy(orgId: string, loginUrl: string, username: string): StoredSavedLogin | null {
    const rows = this.db
      .prepare("SELECT * FROM saved_logins WHERE org_id = ? AND username = ? AND source = 'stored_credentials'")
      .all(orgId, username) as Row[];
    const page = loginUrlView(loginUrl);
    const row = rows.find((r) => loginUrlView(r.login_url) === page);
    return row ? fromRow(row) : null;
  }

  labelTaken(orgId: string, label: string, exceptId?: string): boolean {
    return !!this.labelRow.get(orgId, label, exceptId ?? null);
  }

  touch(id: string, at: number): void {
    this.touchRow.run(at, id);
  }

  delete(orgId: string, id: string): boolean {
    return this.db.prepare('DELETE FROM saved_logins WHERE id = ? AND org_id = ?').run(id, orgId).changes > 0;
  }

  /**
   * An import's rows in one transaction: every insert and update, or none. An update applies only while the row's
   * updated_at is still `was` (what the import read): false, and nothing written, when one changed meanwhile.
   */
  applyImport(
    inserts: readonly StoredSavedLogin[],
    updates: readonly { row: StoredSavedLogin; was: number }[],
  ): boolean {
    const insert = this.db.prepare(
      `INSERT INTO saved_logins (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
    );
    const sets = COLUMNS.filter((c) => c !== 'id' && c !== 'org_id' && c !== 'created_at').map((c) => `${c} = @${c}`);
    const update = this.db.prepare(
      `UPDATE saved_logins SET ${sets.join(', ')} WHERE id = @id AND org_id = @org_id AND updated_at = @was`,
    );
    const changed = new Error('changed meanwhile');
    try {
      // IMMEDIATE: the write lock from the start, so another process's write cannot fail it halfway
      this.db
        .transaction(() => {
          for (const s of inserts) insert.run(toRow(s));
          for (const { row, was } of updates) if (update.run({ ...toRow(row), was }).changes === 0) throw changed;
        })
        .immediate();
      return true;
    } catch (err) {
      if (err === changed) return false;
      throw err;
    }
  }

  /** What an import plans against: id, label, login page and username of each saved login of the organization. */
  planRows(orgId: string): Array<Pick<StoredSavedLogin, 'id' | 'label' | 'loginUrl' | 'username'>> {
    return this.db
      .prepare('SELECT id, label, login_url AS loginUrl, username FROM saved_logins WHERE org_id = ?')
      .all(orgId) as Array<Pick<StoredSavedLogin, 'id' | 'label' | 'loginUrl' | 'username'>>;
  }

  /** The updated_at of each of these saved logins that exists (any organization). */
  updatedAt(ids: readonly string[]): Map<string, number> {
    const rows = this.db
      .prepare('SELECT id, updated_at FROM saved_logins WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(ids)) as { id: string; updated_at: number }[];
    return new Map(rows.map((r) => [r.id, r.updated_at]));
  }
}
