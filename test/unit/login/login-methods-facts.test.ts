// The login methods are declared once, in src/shared/login.schema.ts (LOGIN_METHODS, ANNOUNCED_LOGIN_METHODS): the
// engine's request type, the methods the server describes (GET /api/login/methods) and the OpenAPI prose of
// POST /api/login all follow from them (issue 41: the prose had lost passkey, the engine had its own union).
import { describe, expect, expectTypeOf, it } from 'vitest';
import { LOGIN_METHOD_INFO } from '../../../src/main/core/login/login-methods.js';
import type { EngineLoginRequest } from '../../../src/main/core/login/login-types.js';
import { API_ROUTES } from '../../../src/shared/api/index.js';
import { KNOWN_LOGIN_METHODS, type KnownLoginMethod } from '../../../src/shared/login.schema.js';

describe('login methods from LOGIN_METHODS', () => {
  it("the engine's method is a known login method, no more and no fewer", () => {
    expectTypeOf<NonNullable<EngineLoginRequest['method']>>().toEqualTypeOf<KnownLoginMethod>();
  });

  it('GET /api/login/methods describes each known method once', () => {
    expect(LOGIN_METHOD_INFO.map((m) => m.id).sort()).toEqual([...KNOWN_LOGIN_METHODS].sort());
  });

  it("POST /api/login's description names every known method (passkey included)", () => {
    const prose = API_ROUTES.login.description ?? '';
    expect(prose).toContain(`loginMethod (${KNOWN_LOGIN_METHODS.join(', ')})`);
    expect(prose).toContain('passkey');
  });
});
