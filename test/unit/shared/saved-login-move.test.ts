// The one rule of when a change moves where a saved login's secrets are typed (src/shared/saved-login-move.ts), used
// by the API's 409 SECRETS_REQUIRED and the window's confirmation; and a route's list of scopes meaning all of them.
import { describe, expect, it } from 'vitest';
import { secretsMoveTo } from '../../../src/shared/saved-login-move.js';
import { hasScope, missingScope } from '../../../src/shared/scopes.js';

const A = 'https://app.example.com';
const before = { loginUrl: `${A}/login`, origins: [A, 'https://accounts.example.com'] };

describe('secretsMoveTo', () => {
  it('nothing moves: the same page, another path or query on its origin, origins removed', () => {
    expect(secretsMoveTo(before, before)).toEqual([]);
    expect(secretsMoveTo(before, { loginUrl: `${A}/signin?next=%2F`, origins: before.origins })).toEqual([]);
    expect(secretsMoveTo(before, { ...before, origins: [A] })).toEqual([]);
  });

  it('the login page on another origin, and each origin added, are new places', () => {
    expect(secretsMoveTo(before, { loginUrl: 'https://evil.test/login', origins: ['https://evil.test'] })).toEqual([
      'https://evil.test',
    ]);
    expect(secretsMoveTo(before, { ...before, origins: [...before.origins, 'https://b.test'] })).toEqual([
      'https://b.test',
    ]);
  });

  it('origins not known yet: any other login page moves them, naming origins only narrows', () => {
    const unknown = { loginUrl: `${A}/login`, origins: [] };
    expect(secretsMoveTo(unknown, { loginUrl: `${A}/other`, origins: [] })).toEqual([A]);
    expect(secretsMoveTo(unknown, { loginUrl: `${A}/login`, origins: [A, 'https://b.test'] })).toEqual([]);
  });
});

describe('a list of scopes', () => {
  it('needs every one of them; the first one missing is named', () => {
    const both = ['credentials:write', 'login:write'] as const;
    expect(hasScope(['credentials:write', 'login:write'], both)).toBe(true);
    expect(hasScope(['*'], both)).toBe(true);
    expect(missingScope(['credentials:write'], both)).toBe('login:write');
    expect(missingScope(['login:write'], both)).toBe('credentials:write');
    expect(missingScope(['*'], ['login:write', 'browser-profiles:read'])).toBe('browser-profiles:read');
  });
});
