import type { Mailbox } from '../../../../shared/mailboxes.schema.js';
import type { Db } from '../../db/database.js';

/** A mailbox with the organization it belongs to (the API answers never show `orgId`). */
export interface StoredMailbox extends Mailbox {
  orgId: string;
}

interface Row {
  id: string;
  org_id: string;
  name: string;
  addresses: string;
  imap_host: string;
  imap_port: number;
  imap_secure: number;
  imap_username: string;
  imap_allow_insecure_auth: number;
  created_at: number;
}

function fromRow(r: Row): StoredMailbox {
  return {
    id: r.id,
    orgId: r.org_id,
    name: r.name,
    addresses: JSON.parse(r.addresses) as string[],
    imap: {
      host: r.imap_host,
      port: r.imap_port,
      secure: r.imap_secure === 1,
      username: r.imap_username,
      allowInsecureAuth: r.imap_allow_insecure_auth === 1,
    },
    created_at: r.created_at,
  };
}

/** The only owner of the `mailboxes` table. Never holds a password. */
export class MailboxesRepo {
  constructor(private readonly db: Db) {}

  insert(m: StoredMailbox): void {
    this.db
      .prepare(
        `INSERT INTO mailboxes (id, org_id, name, addresses, imap_host, imap_port, imap_secure, imap_username,
           imap_allow_insecure_auth, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        m.id,
        m.orgId,
        m.name,
        JSON.stringify(m.addresses),
        m.imap.host,
        m.imap.port,
        m.imap.secure ? 1 : 0,
        m.imap.username,
        m.imap.allowInsecureAuth ? 1 : 0,
        m.created_at,
      );
  }

  /** The organization's mailboxes, oldest first (the order `match` answers in). */
  list(orgId: string): StoredMailbox[] {
    const rows = this.db
      .prepare('SELECT * FROM mailboxes WHERE org_id = ? ORDER BY created_at, id')
      .all(orgId) as Row[];
    return rows.map(fromRow);
  }

  /** Every organization's mailboxes (the CLI's listing). */
  listAll(): StoredMailbox[] {
    return (this.db.prepare('SELECT * FROM mailboxes ORDER BY org_id, created_at, id').all() as Row[]).map(fromRow);
  }

  /** By id alone (the CLI administers every organization); API callers use `get`. */
  find(id: string): StoredMailbox | null {
    const row = this.db.prepare('SELECT * FROM mailboxes WHERE id = ?').get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  get(orgId: string, id: string): StoredMailbox | null {
    const row = this.db.prepare('SELECT * FROM mailboxes WHERE id = ? AND org_id = ?').get(id, orgId) as
      Row | undefined;
    return row ? fromRow(row) : null;
  }

  delete(orgId: string, id: string): boolean {
    return this.db.prepare('DELETE FROM mailboxes WHERE id = ? AND org_id = ?').run(id, orgId).changes > 0;
  }
}
