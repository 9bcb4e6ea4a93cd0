// A saved login's login page as the database and answers keep it (src/main/core/login/vault/login-url-view.ts): each
// query value and the fragment masked, the full URL for the secret store, and a masked URL sent back kept as saved.
import { describe, expect, it } from 'vitest';
import { changedLoginUrl, hidesParts, loginUrlView } from '../../../../src/main/core/login/vault/login-url-view.js';

describe('loginUrlView', () => {
  it('masks query values, a bare query key and the fragment; a URL without them comes back as given', () => {
    expect(loginUrlView('https://a.test/login?invite=tok123&lang=en#step2')).toBe(
      'https://a.test/login?invite=***&lang=***#***',
    );
    expect(loginUrlView('https://a.test/login?eyJhbGciOi')).toBe('https://a.test/login?***=***');
    expect(loginUrlView('https://a.test')).toBe('https://a.test');
    expect(hidesParts('https://a.test/login')).toBe(false);
  });

  it('is stable: a view masked again is the same view', () => {
    const view = loginUrlView('https://a.test/login?invite=tok123&x#y');
    expect(loginUrlView(view)).toBe(view);
    expect(hidesParts(view)).toBe(false);
  });
});

describe('changedLoginUrl', () => {
  const row = 'https://a.test/login?invite=***';
  const kept = 'https://a.test/login?invite=tok123';

  it('no URL, or the masked one sent back: no change, the kept URL stays', () => {
    for (const given of [undefined, row])
      expect(changedLoginUrl(row, kept, given)).toEqual({ shown: row, changed: false, view: row, hidden: kept });
  });

  it('a new URL: its view for the row, the URL itself for the secret store when it hides parts', () => {
    expect(changedLoginUrl(row, kept, 'https://b.test/in')).toMatchObject({
      changed: true,
      view: 'https://b.test/in',
      hidden: undefined,
    });
    expect(changedLoginUrl(row, kept, 'https://a.test/login?invite=new456')).toMatchObject({
      changed: true,
      view: row,
      hidden: 'https://a.test/login?invite=new456',
    });
  });

  it('a row an older version wrote in full: its view, and the URL moves to the secret store', () => {
    expect(changedLoginUrl(kept, undefined, undefined)).toMatchObject({ changed: false, view: row, hidden: kept });
  });
});
