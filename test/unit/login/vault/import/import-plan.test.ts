import { describe, expect, it } from 'vitest';
import {
  parseExport,
  type ImportFormat,
  type ImportedLogin,
  type ParsedExport,
} from '../../../../../src/main/core/login/vault/import/export-formats.js';
import {
  planImport,
  type ExistingLogin,
  type ImportPlanItem,
} from '../../../../../src/main/core/login/vault/import/import-plan.js';
import { SECRET_MARKERS, fixture, onePux } from './fixtures.js';

let n = 0;
/** A login read from line N of a file (a fresh line each call). */
function login(fields: Partial<ImportedLogin>): ImportedLogin {
  n++;
  return { at: `line ${n + 1}`, username: 'ann', password: `s3cret-${n}`, ...fields };
}
const plan = (logins: ImportedLogin[], existing: ExistingLogin[] = [], skipped: ParsedExport['skipped'] = []) =>
  planImport({ logins, skipped }, existing);
const counts = (items: ImportPlanItem[]) => ({
  create: items.filter((i) => i.action === 'create').length,
  merge: items.filter((i) => i.action === 'merge').length,
  skip: items.filter((i) => i.action === 'skip').length,
});

describe('planImport on a real export with duplicates and saved logins (1PUX)', () => {
  const existing: ExistingLogin[] = [
    { id: 'cred_example', label: 'Example', origin: 'https://example.com', username: 'ANN@example.com' },
    { id: 'cred_shop', label: 'example shop', origin: 'https://shop.example.net', username: 'bob' },
  ];
  const items = planImport(parseExport('1password', onePux()), existing);

  it('creates, merges and skips, in file order', () => {
    expect(counts(items)).toEqual({ create: 2, merge: 1, skip: 4 });
    expect(items.map((i) => [i.at, i.action, i.label, i.origin])).toEqual([
      ['item 1', 'merge', 'Example', 'https://example.com'],
      ['item 2', 'skip', 'Example Visa', null],
      ['item 3', 'skip', 'Door codes', null],
      ['item 4', 'skip', 'Wi-Fi router', null],
      ['item 5', 'create', 'Example Shop (2)', 'https://shop.example.org'], // "example shop" is taken
      ['item 6', 'create', 'Old intranet', 'http://intranet.example.org:8080'],
      ['item 7', 'skip', 'Example (work)', 'https://example.com'],
    ]);
  });

  it('gives each merge and skip its reason', () => {
    expect(items.map((i) => i.reason)).toEqual([
      "same site and username as the saved login 'Example'",
      'a credit card, not a login',
      'a secure note, not a login',
      'no website address (URL) in the entry',
      undefined,
      undefined,
      'same site and username as item 1', // one merge per saved login: the later duplicate is skipped
    ]);
    expect(items[0].mergeInto).toBe('cred_example');
  });

  it('carries what to save for create and merge only', () => {
    expect(items[0].login).toEqual({
      loginUrl: 'https://example.com/login',
      password: 's3cret-1pux-1',
      totpSecret: 'otpauth://totp/Example:ann%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example',
      notes: 'Shared with Bob, "read only"\nRotate every 90 days',
    });
    expect(items[4].login).toEqual({
      loginUrl: 'https://shop.example.org/',
      password: 's3cret-1pux-2',
      totpSecret: 'GEZDGNBVGY3TQOJQ',
    });
    expect(
      items.filter((i) => i.action === 'skip').every((i) => i.login === undefined && i.mergeInto === undefined),
    ).toBe(true);
  });
});

describe('planImport: the site', () => {
  it('takes the origin of an http(s) URL and a bare host as https', () => {
    const items = plan([
      login({ url: 'https://Example.COM/login?next=/home#top' }),
      login({ url: 'example.org/sign-in', username: 'bob' }),
      login({ url: 'http://intranet.example.net:8080/', username: 'carl' }),
      login({ url: 'localhost:3000/login', username: 'dora' }),
      login({ url: '  https://user:pw@secure.example.com/  ', username: 'eve' }),
    ]);
    expect(items.map((i) => [i.action, i.origin, i.login?.loginUrl])).toEqual([
      ['create', 'https://example.com', 'https://example.com/login?next=/home#top'],
      ['create', 'https://example.org', 'https://example.org/sign-in'],
      ['create', 'http://intranet.example.net:8080', 'http://intranet.example.net:8080/'],
      ['create', 'https://localhost:3000', 'https://localhost:3000/login'],
      ['create', 'https://secure.example.com', 'https://secure.example.com/'], // credentials in the URL dropped
    ]);
  });

  it('skips other schemes, no URL and text that is no address, saying why', () => {
    const items = plan([
      login({ url: 'android://hash==@com.example.app/', title: '' }),
      login({ url: 'chrome://FirefoxAccounts' }),
      login({ url: 'ssh://build.example.net', title: 'Build server' }),
      login({ url: 'My bank' }),
      login({ url: 'intranet' }),
      login({}),
    ]);
    expect(items.map((i) => [i.action, i.label, i.origin, i.reason])).toEqual([
      ['skip', 'com.example.app', null, 'the address is an Android app, not a website (http or https)'],
      ['skip', 'FirefoxAccounts', null, 'the address starts with chrome:, not http or https (it is not a website)'],
      ['skip', 'Build server', null, 'the address starts with ssh:, not http or https (it is not a website)'],
      ['skip', 'ann', null, 'the address is not a valid website address'],
      ['skip', 'ann', null, 'the address is not a valid website address'],
      ['skip', 'ann', null, 'no website address (URL) in the entry'],
    ]);
  });
});

describe('planImport: secrets', () => {
  it('skips an entry with neither password nor TOTP; a TOTP alone is enough', () => {
    const items = plan([
      login({ url: 'https://a.example.com', password: '' }),
      login({ url: 'https://b.example.com', password: '', totpSecret: ' JBSWY3DPEHPK3PXP ' }),
      login({ url: 'https://c.example.com', password: '', totpSecret: '  ' }),
    ]);
    expect(items.map((i) => [i.action, i.reason])).toEqual([
      ['skip', 'no password (and no one-time-code secret) in the entry'],
      ['create', undefined],
      ['skip', 'no password (and no one-time-code secret) in the entry'],
    ]);
    expect(items[1].login).toEqual({
      loginUrl: 'https://b.example.com/',
      password: '',
      totpSecret: 'JBSWY3DPEHPK3PXP',
    });
  });
});

describe('planImport: duplicates and merges', () => {
  it('creates the first of the same site and username (any case) in a file and skips the rest, naming it', () => {
    const items = plan([
      login({ url: 'https://example.com/login', username: 'Ann@Example.com' }),
      login({ url: 'https://example.com/other', username: 'ann@example.com' }),
      login({ url: 'example.com', username: 'ANN@EXAMPLE.COM' }),
      login({ url: 'https://example.com', username: 'bob' }), // another user: its own login
      login({ url: 'http://example.com', username: 'ann@example.com' }), // another origin (http)
    ]);
    const first = items[0].at;
    expect(items.map((i) => [i.action, i.reason])).toEqual([
      ['create', undefined],
      ['skip', `same site and username as ${first}`],
      ['skip', `same site and username as ${first}`],
      ['create', undefined],
      ['create', undefined],
    ]);
  });

  it('merges into the saved login of the same origin and username, once per file', () => {
    const existing: ExistingLogin[] = [
      { id: 'cred_1', label: 'Work mail', origin: 'https://mail.example.com/', username: 'Ann' },
      { id: 'cred_2', label: 'Forum', origin: 'https://forum.example.com', username: 'ann' },
    ];
    const items = plan(
      [
        login({ url: 'https://mail.example.com/login', title: 'Mail', notes: 'note' }),
        login({ url: 'mail.example.com', title: 'Mail again' }),
        login({ url: 'https://forum.example.com/', username: 'someone-else' }),
      ],
      existing,
    );
    expect(items.map((i) => [i.action, i.label, i.mergeInto, i.reason])).toEqual([
      ['merge', 'Work mail', 'cred_1', "same site and username as the saved login 'Work mail'"],
      ['skip', 'Mail again', undefined, `same site and username as ${items[0].at}`],
      ['create', 'forum.example.com (someone-else)', undefined, undefined],
    ]);
    expect(items[0].login?.notes).toBe('note');
  });
});

describe('planImport: labels', () => {
  it('the title (trimmed, one line, at most 120 characters), else "host (username)", else the host', () => {
    const long = 'A'.repeat(200);
    const items = plan([
      login({ url: 'https://a.example.com', title: '  Example\n account  ' }),
      login({ url: 'https://b.example.com', title: long }),
      login({ url: 'https://c.example.com:8443/x', username: 'bob' }),
      login({ url: 'https://d.example.com', username: '' }),
      login({ url: 'https://e.example.com', title: '   ' }),
    ]);
    expect(items.map((i) => i.label)).toEqual([
      'Example account',
      'A'.repeat(120),
      'c.example.com:8443 (bob)',
      'd.example.com',
      'e.example.com (ann)',
    ]);
  });

  it('unique against saved labels and earlier items, case-insensitively, within 120 characters', () => {
    const long = 'B'.repeat(120);
    const items = plan(
      [
        login({ url: 'https://a.example.com', title: 'GitHub' }),
        login({ url: 'https://b.example.com', title: 'github' }),
        login({ url: 'https://c.example.com', title: 'GITHUB (2)' }),
        login({ url: 'https://d.example.com', title: 'GitHub' }),
        login({ url: 'https://e.example.com', title: long }),
        login({ url: 'https://f.example.com', title: long }),
      ],
      [{ id: 'cred_gh', label: 'Github', origin: 'https://github.com', username: 'ann' }],
    );
    expect(items.map((i) => i.label)).toEqual([
      'GitHub (2)',
      'github (3)',
      'GITHUB (2) (2)',
      'GitHub (4)',
      long,
      `${'B'.repeat(116)} (2)`,
    ]);
  });

  it('a skipped non-login entry keeps its title, and comes out in file order', () => {
    const items = plan(
      [login({ at: 'line 2', url: 'https://a.example.com' }), login({ at: 'line 9', url: 'https://b.example.com' })],
      [],
      [
        { at: 'line 5', title: 'Wi-Fi at home', reason: 'a secure note, not a login' },
        { at: 'line 12', reason: 'a card, not a login' },
      ],
    );
    expect(items.map((i) => [i.at, i.action, i.label, i.username, i.origin])).toEqual([
      ['line 2', 'create', 'a.example.com (ann)', 'ann', 'https://a.example.com'],
      ['line 5', 'skip', 'Wi-Fi at home', '', null],
      ['line 9', 'create', 'b.example.com (ann)', 'ann', 'https://b.example.com'],
      ['line 12', 'skip', 'line 12', '', null],
    ]);
  });
});

describe('planImport on every fixture', () => {
  const files: Array<[ImportFormat, Uint8Array]> = [
    ['chrome', fixture('chrome-windows.csv')],
    ['firefox', fixture('firefox.csv')],
    ['safari', fixture('safari.csv')],
    ['bitwarden', fixture('bitwarden.csv')],
    ['bitwarden', fixture('bitwarden.json')],
    ['1password', fixture('1password.csv')],
    ['keepassxc', fixture('keepassxc.csv')],
  ];

  it('has one item per entry, each duplicate skipped, and no secret outside `login`', () => {
    for (const [format, content] of files) {
      const parsed = parseExport(format, content);
      const items = planImport(parsed, []);
      expect(items).toHaveLength(parsed.logins.length + parsed.skipped.length);
      expect(items.some((i) => i.reason?.startsWith('same site and username as '))).toBe(true);
      const shown = JSON.stringify(items.map(({ login: _secrets, ...rest }) => rest));
      for (const marker of SECRET_MARKERS) expect(shown).not.toContain(marker);
    }
  });
});
