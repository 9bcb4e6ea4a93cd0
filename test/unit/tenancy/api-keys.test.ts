import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/core/db/database.js';
import { ApiKeysService } from '../../../src/main/core/tenancy/api-keys.service.js';
import { OrgsService } from '../../../src/main/core/tenancy/orgs.service.js';
import { CreditsService } from '../../../src/main/core/tenancy/credits.service.js';
import { tempDir } from '../../helpers/temp-dir.js';

function setup() {
  const db = openDatabase(tempDir());
  const orgs = new OrgsService({ db });
  return { db, org: orgs.create('acme'), orgs, keys: new ApiKeysService({ db }), credits: new CreditsService({ db }) };
}

describe('api keys', () => {
  it('are pk_ + 40 base62 chars, stored only as a hash', () => {
    const { db, org, keys } = setup();
    const { key, info } = keys.create(org.id, { scopes: ['templates:read'] });
    expect(key).toMatch(/^pk_[0-9A-Za-z]{40}$/);
    const row = db.prepare('SELECT * FROM api_keys WHERE id = ?').get(info.id) as Record<string, unknown>;
    expect(JSON.stringify(row)).not.toContain(key.slice(3));
    expect((row.hash as Buffer).length).toBe(32);
    expect(keys.authenticate(key)).toEqual({ keyId: info.id, orgId: org.id, scopes: ['templates:read'] });
  });

  it('unknown, malformed, revoked and expired keys are all just null', () => {
    const { org, keys } = setup();
    const { key, info } = keys.create(org.id);
    const expired = keys.create(org.id, { expiresAt: Date.now() - 1 }).key;
    expect(keys.authenticate(undefined)).toBeNull();
    expect(keys.authenticate('pk_short')).toBeNull();
    expect(keys.authenticate(`pk_${'A'.repeat(40)}`)).toBeNull();
    expect(keys.authenticate(`${key} `)).toBeNull();
    expect(keys.authenticate(expired)).toBeNull();
    expect(keys.revoke(info.id)).toBe(true);
    expect(keys.revoke(info.id)).toBe(false);
    expect(keys.authenticate(key)).toBeNull();
  });

  it('rejects unknown scopes and generates distinct keys', () => {
    const { org, keys } = setup();
    expect(() => keys.create(org.id, { scopes: ['templates:read', 'admin'] })).toThrow(/Unknown scope/);
    const seen = new Set(Array.from({ length: 200 }, () => keys.create(org.id).key));
    expect(seen.size).toBe(200);
  });
});

describe('credits', () => {
  it('charges atomically and never below zero', () => {
    const { org, credits } = setup();
    credits.grant(org.id, 30);
    let ok = 0;
    let refused = 0;
    for (let i = 0; i < 10; i++) {
      try {
        credits.charge(org.id, 7, `g${i}`);
        ok++;
      } catch (err) {
        expect((err as { status: number }).status).toBe(402);
        refused++;
      }
    }
    expect([ok, refused, credits.balance(org.id)]).toEqual([4, 6, 2]);
    credits.refund(org.id, 7, 'g0');
    expect(credits.balance(org.id)).toBe(9);
    expect(credits.ledger(org.id).map((e) => e.kind)).toEqual([
      'refund',
      'charge',
      'charge',
      'charge',
      'charge',
      'grant',
    ]);
  });

  it('rolls the charge back when the work inside the transaction throws', () => {
    const { org, credits } = setup();
    credits.grant(org.id, 10);
    expect(() =>
      credits.charge(org.id, 5, 'x', () => {
        throw new Error('insert failed');
      }),
    ).toThrow('insert failed');
    expect(credits.balance(org.id)).toBe(10);
  });
});
