import { describe, expect, it } from 'vitest';
import { loginNotice } from '../../../src/main/core/desktop/login-notice.js';

describe('loginNotice', () => {
  it('names the site and the task the live page asks for, in the banner’s words', () => {
    expect(loginNotice('shop.example', 'captcha_blocked')).toEqual({
      title: 'A login needs you',
      body: 'shop.example: solve the CAPTCHA, then sign in. Click to show the page.',
    });
    expect(loginNotice('bank.example', 'mfa_required').body).toBe(
      'bank.example: enter the sign-in code. Click to show the page.',
    );
    expect(loginNotice('x.example', 'something_new').body).toBe(
      'x.example: finish signing in. Click to show the page.',
    );
  });

  it('keeps a very long host name short', () => {
    expect(loginNotice('a'.repeat(500), 'mfa_required').body.length).toBeLessThan(180);
  });
});
