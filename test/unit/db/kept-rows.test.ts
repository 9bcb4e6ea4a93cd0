// Rows kept in memory on the hot path (src/main/core/db/change-stamp.ts): the API key of every request and the
// session of a cache hit. A kept row must never outlive a write: one through this connection drops it at once, a
// commit of another process (a second connection on the same file, as the CLI opens it) within the documented window.
import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeptRows, OTHER_PROCESS_WRITES_SEEN_WITHIN_MS } from '../../../src/main/core/db/change-stamp.js';
import { openDatabase } from '../../../src/main/core/db/database.js';
import { OrgsService } from '../../../src/main/core/tenancy/orgs.service.js';
import { ApiKeysService } from '../../../src/main/core/tenancy/api-keys.service.js';
import { tempDir } from '../../helpers/temp-dir.js';

function setUp() {
  let now = 1_000;
  const dir = tempDir();
  const db = openDatabase(dir, undefined, { clock: () => now });
  const orgs = new OrgsService({ db });
  const keys = new ApiKeysService({ db });
  const org = orgs.create('acme');
  const created = keys.create(org.id);
  return { db, dir, keys, org, created, advance: (ms: number) => (now += ms) };
}

describe('rows kept in memory', () => {
  it('a key revoked in this process is refused on the very next request', () => {
    const { keys, created } = setUp();
    expect(keys.authenticate(created.key)?.keyId).toBe(created.info.id);
    expect(keys.authenticate(created.key)?.keyId).toBe(created.info.id); // now served from memory
    expect(keys.revoke(created.info.id)).toBe(true);
    expect(keys.authenticate(created.key)).toBeNull();
  });

  it('a key revoked by another process is refused once its commit is seen (within the documented window)', () => {
    const { keys, created, dir, advance } = setUp();
    expect(keys.authenticate(created.key)?.keyId).toBe(created.info.id);
    const other = new Database(path.join(dir, 'agent-studio.db'));
    other.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(Date.now(), created.info.id);
    other.close();
    // Inside the window the kept row may still answer; past it, the other connection's commit is seen.
    advance(OTHER_PROCESS_WRITES_SEEN_WITHIN_MS);
    expect(keys.authenticate(created.key)).toBeNull();
  });

  it('an unknown key is never kept (random keys cannot fill the memory), and a key made later is found', () => {
    const { db, keys, org } = setUp();
    const rows = new KeptRows<{ id: string }>(db, 2);
    let reads = 0;
    const read = () => {
      reads++;
      return undefined;
    };
    expect(rows.get('nope', read)).toBeUndefined();
    expect(rows.get('nope', read)).toBeUndefined();
    expect(reads).toBe(2);
    const later = keys.create(org.id);
    expect(keys.authenticate(later.key)?.keyId).toBe(later.info.id);
  });

  it('keeps at most `max` rows, and none read inside a transaction (it may roll back)', () => {
    const { db } = setUp();
    const rows = new KeptRows<string>(db, 2);
    let reads = 0;
    const read = (v: string) => () => {
      reads++;
      return v;
    };
    rows.get('a', read('A'));
    rows.get('b', read('B'));
    rows.get('c', read('C')); // 'a' goes
    expect(reads).toBe(3);
    expect(rows.get('c', read('C'))).toBe('C');
    expect(rows.get('b', read('B'))).toBe('B');
    expect(reads).toBe(3);
    expect(rows.get('a', read('A2'))).toBe('A2');
    expect(reads).toBe(4);

    const inTx = new KeptRows<string>(db);
    let txReads = 0;
    db.transaction(() => {
      inTx.get('x', () => (txReads++, 'uncommitted'));
    })();
    inTx.get('x', () => (txReads++, 'committed'));
    expect(txReads).toBe(2);
  });

  it('any write through the connection (statement, exec, pragma) drops every kept row', () => {
    const { db } = setUp();
    const rows = new KeptRows<number>(db);
    let version = 0;
    const read = () => ++version;
    expect(rows.get('k', read)).toBe(1);
    expect(rows.get('k', read)).toBe(1);
    db.prepare("INSERT INTO orgs (id, name, created_at) VALUES ('o2', 'two', 0)").run();
    expect(rows.get('k', read)).toBe(2);
    db.exec("UPDATE orgs SET name = 'deux' WHERE id = 'o2'");
    expect(rows.get('k', read)).toBe(3);
    db.pragma('user_version = 7');
    expect(rows.get('k', read)).toBe(4);
    expect(rows.get('k', read)).toBe(4);
  });
});
