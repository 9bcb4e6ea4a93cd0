/**
 * The keyword patterns behind the outcome verdicts (src/main/core/login/engine/form-keywords.ts), where
 * one wrong word turns a wrong password into a lockout or a signed-in page into a failure.
 */
import { describe, expect, it } from 'vitest';
import { KEYWORDS } from '../../../../src/main/core/login/engine/form-keywords.js';

const re = (name: keyof typeof KEYWORDS) => new RegExp(KEYWORDS[name], 'i');
/** What the engine counts as a lockout: the lockout text still there once a hedged mention is taken out. */
const isLockout = (text: string) => re('locked').test(text.replace(new RegExp(KEYWORDS.lockHedge, 'gi'), ' '));

describe('login keywords', () => {
  it('a lockout named as one possibility is not a lockout; a lockout said outright is', () => {
    expect(isLockout('Username or password incorrect, or account is temporarily blocked.')).toBe(false);
    expect(isLockout('Invalid login. Your account may be locked.')).toBe(false);
    expect(isLockout('Your account has been locked. Contact your administrator.')).toBe(true);
    expect(isLockout('Too many failed login attempts. Try again in 15 minutes.')).toBe(true);
    expect(isLockout('Account temporarily blocked after 5 failed attempts.')).toBe(true);
  });

  it('a report of earlier failed attempts reads as a notice', () => {
    expect(re('attemptReport').test('1 failed login attempt logged since your last login.')).toBe(true);
    expect(re('attemptReport').test('There were 3 unsuccessful sign-in attempts since your last visit')).toBe(true);
    expect(re('attemptReport').test('Login failed: invalid username or password')).toBe(false);
  });

  it('reads Japanese, Chinese and Korean sign-in buttons and errors', () => {
    for (const button of ['サインイン', 'ログイン', '登录', '로그인']) expect(re('login').test(button)).toBe(true);
    expect(re('strongError').test('ユーザー名またはパスワードが正しくありません。')).toBe(true);
    expect(re('strongError').test('用户名或密码错误')).toBe(true);
    expect(re('logout').test('ログアウト')).toBe(true);
  });

  it("a bot wall's refusal of the browser is told from a wrong password and from mentions of bots", () => {
    for (const refusal of [
      'Access denied: automated browser detected. Our bot protection blocked this sign-in.',
      'Automated access is not allowed.',
      'Your request was flagged as a bot.',
      'Sorry, this looks like automated traffic.',
      'Requests from headless browsers are blocked.',
      'We blocked this request because we detected automation.',
    ])
      expect(re('botWall').test(refusal), refusal).toBe(true);
    for (const other of [
      'Incorrect email or password.',
      'Protected by bot detection.',
      'This site is protected by reCAPTCHA and the Google Privacy Policy.',
      'Chat with our support bot',
      'Automated backups run nightly.',
      'Your account has been locked.',
    ])
      expect(re('botWall').test(other), other).toBe(false);
  });
});
