import { describe, expect, it } from 'vitest';
import { looksLikeLoginPath } from '../../../../src/main/core/login/lifecycle/session-validator.js';

describe('looksLikeLoginPath (a redirect there means the session is dead)', () => {
  it.each([
    '/login',
    '/Login/',
    '/signin',
    '/sign-in',
    '/users/sign_in',
    '/auth',
    '/auth/realms/acme/protocol/openid-connect/auth',
    '/oauth2/authorize',
    '/wp-login.php',
    '/session/new',
    '/account/login.aspx',
    '/sso/saml',
  ])('%s is a sign-in page', (path) => expect(looksLikeLoginPath(path)).toBe(true));

  it.each([
    '/',
    '/account',
    '/app',
    '/authors',
    '/author/ada',
    '/blog/how-to-login-faster',
    '/logins-report',
    '/sessions',
  ])('%s is not', (path) => expect(looksLikeLoginPath(path)).toBe(false));
});
