import { describe, expect, it } from 'vitest';
import {
  IMPORT_FORMATS,
  parseExport,
  type ImportedLogin,
} from '../../../../../src/main/core/login/vault/import/export-formats.js';
import { fixture, fixtureText, onePux } from './fixtures.js';

const byAt = (logins: ImportedLogin[], at: string) => logins.find((l) => l.at === at);

describe('parseExport: Chrome / Edge CSV', () => {
  it('reads the Windows export (BOM, CRLF, quoted commas, quotes and line breaks)', () => {
    const { logins, skipped } = parseExport('chrome', fixture('chrome-windows.csv'));
    expect(skipped).toEqual([]);
    expect(logins.map((l) => [l.at, l.title, l.username])).toEqual([
      ['line 2', 'com.example.app', 'ann@example.com'],
      ['line 3', 'example.com', 'ANN@example.com'],
      ['line 4', 'example.com', 'ann@example.com'],
      ['line 5', 'example.org', 'bob'],
      ['line 7', 'intranet.example.com', 'admin'], // line 5's note spans lines 5-6
    ]);
    expect(logins[0].url).toMatch(/^android:\/\/.+@com\.example\.app\/$/);
    expect(byAt(logins, 'line 4')).toEqual({
      at: 'line 4',
      title: 'example.com',
      url: 'https://example.com/login',
      username: 'ann@example.com',
      password: 's3cret-chrome-1',
      notes: 'Shared account, ask Bob before changing it',
    });
    const quoted = byAt(logins, 'line 5');
    expect(quoted?.password).toBe('s3cret-chrome-"quoted",2');
    expect(quoted?.notes).toBe('first line of the note\nsecond line, with a comma');
    expect(byAt(logins, 'line 7')?.notes).toBeUndefined();
  });

  it('reads an export without the note column, and the same file given as text', () => {
    const fromBytes = parseExport('chrome', fixture('chrome-no-note.csv'));
    expect(fromBytes.logins).toEqual([
      {
        at: 'line 2',
        title: 'example.com',
        url: 'https://example.com/',
        username: 'carol',
        password: 's3cret-chrome-old-1',
      },
      {
        at: 'line 3',
        title: 'login.example.net',
        url: 'https://login.example.net/session',
        username: 'carol@example.net',
        password: 's3cret-chrome-old-2',
      },
    ]);
    expect(parseExport('chrome', fixtureText('chrome-no-note.csv'))).toEqual(fromBytes);
    // a BOM left in the text (read with a decoder that keeps it) is dropped as well
    expect(parseExport('chrome', fixtureText('chrome-windows.csv')).logins).toHaveLength(5);
  });
});

describe('parseExport: Firefox CSV', () => {
  it('reads every quoted field, empty unquoted nulls, CRLF and the chrome:// account entry', () => {
    const { logins, skipped } = parseExport('firefox', fixture('firefox.csv'));
    expect(skipped).toEqual([]);
    expect(logins.map((l) => [l.at, l.url, l.username])).toEqual([
      ['line 2', 'https://example.com', 'ann@example.com'],
      ['line 3', 'https://intranet.example.org', 'admin'],
      ['line 4', 'chrome://FirefoxAccounts', '0123456789abcdef0123456789abcdef'],
      ['line 5', 'https://shop.example.net', 'dave'],
      ['line 6', 'https://example.com', 'ann@example.com'],
    ]);
    expect(logins[3].password).toBe('s3cret-"firefox",3');
    expect(logins.every((l) => l.title === undefined && l.notes === undefined && l.totpSecret === undefined)).toBe(
      true,
    );
  });
});

describe('parseExport: Safari / Passwords app CSV', () => {
  it('reads title, notes over two lines and the OTPAuth URI', () => {
    const { logins } = parseExport('safari', fixture('safari.csv'));
    expect(logins.map((l) => l.at)).toEqual(['line 2', 'line 3', 'line 5', 'line 6']);
    expect(logins[0]).toEqual({
      at: 'line 2',
      title: 'example.com (ann@example.com)',
      url: 'https://example.com/',
      username: 'ann@example.com',
      password: 's3cret-safari-1',
      totpSecret:
        'otpauth://totp/example.com:ann%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=example.com&algorithm=SHA1&digits=6&period=30',
    });
    expect(logins[1].notes).toBe('Store card on file, do not remove\nSupport PIN asked on the phone');
    expect(logins[1].totpSecret).toBeUndefined();
    expect(logins[2].totpSecret).toMatch(/^otpauth:\/\/totp\?secret=GEZDGNBVGY3TQOJQ/);
  });

  it('reads the Safari 15 header (no Notes column)', () => {
    expect(parseExport('safari', fixture('safari-15.csv')).logins).toEqual([
      {
        at: 'line 2',
        title: 'example.com (erin)',
        url: 'https://example.com/',
        username: 'erin',
        password: 's3cret-safari-old-1',
      },
    ]);
  });
});

describe('parseExport: Bitwarden', () => {
  it('CSV: logins with the first http URI of several, TOTP URI or bare secret; the secure note is skipped', () => {
    const { logins, skipped } = parseExport('bitwarden', fixture('bitwarden.csv'));
    expect(skipped).toEqual([{ at: 'line 5', title: 'Wi-Fi at home', reason: 'a secure note, not a login' }]);
    expect(logins.map((l) => [l.at, l.title, l.url])).toEqual([
      ['line 2', 'Example Social', 'https://social.example.com/login'], // not androidapp://, the second URI
      ['line 4', 'Example Mail', 'mail.example.org'], // line 2's custom fields span lines 2-3
      ['line 7', 'Router admin', undefined],
      ['line 8', 'Example App', 'androidapp://com.example.app'],
      ['line 9', 'Example Social (old)', 'https://social.example.com/'],
    ]);
    expect(logins[0].totpSecret).toMatch(/^otpauth:\/\/totp\/Example%20Social:/);
    expect(logins[0].notes).toBeUndefined(); // custom fields are not notes
    expect(logins[1]).toMatchObject({
      username: 'bob',
      password: 's3cret-bitwarden-2',
      totpSecret: 'GEZDGNBVGY3TQOJQ',
      notes: 'Recovery email is the work one, not the home one',
    });
  });

  it('JSON (unencrypted): logins read, the note, card and identity skipped', () => {
    const { logins, skipped } = parseExport('bitwarden', fixture('bitwarden.json'));
    expect(skipped).toEqual([
      { at: 'item 2', title: 'Alarm code', reason: 'a secure note, not a login' },
      { at: 'item 3', title: 'Example Visa', reason: 'a card, not a login' },
      { at: 'item 5', title: 'Ann at home', reason: 'an identity, not a login' },
    ]);
    expect(logins.map((l) => [l.at, l.title, l.url, l.username])).toEqual([
      ['item 1', 'Example Social', 'https://social.example.com/login', 'ann@example.com'],
      ['item 4', 'Example Mail', 'mail.example.org', 'bob'],
      ['item 6', 'Router admin', undefined, 'admin'],
      ['item 7', 'Example Social (work)', 'https://social.example.com/', 'ANN@EXAMPLE.COM'],
    ]);
    expect(logins[0].totpSecret).toContain('otpauth://totp/');
    expect(logins[1]).toMatchObject({
      totpSecret: 'GEZDGNBVGY3TQOJQ',
      notes: 'Recovery codes are in the safe, "top shelf"',
    });
  });
});

describe('parseExport: 1Password', () => {
  it('CSV (1Password 8): title, URL, OTPAuth, multi-line notes', () => {
    const { logins, skipped } = parseExport('1password', fixture('1password.csv'));
    expect(skipped).toEqual([]);
    expect(logins.map((l) => [l.at, l.title, l.url ?? null, l.username])).toEqual([
      ['line 2', 'Example', 'https://example.com/login', 'ann@example.com'],
      ['line 4', 'Wi-Fi router', null, ''],
      ['line 5', 'Example Shop', 'shop.example.org', 'bob'],
      ['line 6', 'Example (old)', 'https://example.com/', 'Ann@Example.com'],
    ]);
    expect(logins[0].totpSecret).toMatch(/^otpauth:\/\/totp\/Example:/);
    expect(logins[0].notes).toBe('First line of the note\nsecond line, with a comma');
  });

  it('1PUX: logins and Password items read across vaults, the credit card and the note skipped', () => {
    const { logins, skipped } = parseExport('1password', onePux());
    expect(skipped).toEqual([
      { at: 'item 2', title: 'Example Visa', reason: 'a credit card, not a login' },
      { at: 'item 3', title: 'Door codes', reason: 'a secure note, not a login' },
    ]);
    expect(logins.map((l) => [l.at, l.title, l.url ?? null, l.username])).toEqual([
      ['item 1', 'Example', 'https://example.com/login', 'ann@example.com'],
      ['item 4', 'Wi-Fi router', null, ''], // a Password item: details.password, no site
      ['item 5', 'Example Shop', 'shop.example.org', 'bob'], // from overview.urls
      ['item 6', 'Old intranet', 'http://intranet.example.org:8080/login', 'admin'], // archived, second vault
      ['item 7', 'Example (work)', 'https://example.com/', 'Ann@Example.com'],
    ]);
    expect(logins[0]).toMatchObject({
      password: 's3cret-1pux-1',
      totpSecret: 'otpauth://totp/Example:ann%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example',
      notes: 'Shared with Bob, "read only"\nRotate every 90 days',
    });
    expect(logins[1].password).toBe('s3cret-1pux-wifi');
    expect(logins[2].totpSecret).toBe('GEZDGNBVGY3TQOJQ');
  });

  it('1PUX: the export.data JSON on its own (an unzipped export) reads the same', () => {
    expect(parseExport('1password', fixture('1password-export.data.json'))).toEqual(parseExport('1password', onePux()));
  });

  it('1PUX: an item in the early { item: {...} } wrapper, and a linked username object', () => {
    const data = {
      accounts: [
        {
          attrs: { name: 'Ann' },
          vaults: [
            {
              attrs: { name: 'Personal' },
              items: [
                {
                  item: {
                    uuid: 'a',
                    categoryUuid: '001',
                    trashed: false,
                    overview: { title: 'Wrapped', url: 'https://wrapped.example.com' },
                    details: {
                      loginFields: [
                        { designation: 'username', value: { email_address: 'ann@example.com', provider: null } },
                        { designation: 'password', value: 's3cret-wrapped' },
                      ],
                    },
                  },
                },
                { item: { uuid: 'b', categoryUuid: '001', trashed: true, overview: { title: 'Gone' }, details: {} } },
              ],
            },
          ],
        },
      ],
    };
    expect(parseExport('1password', onePux(JSON.stringify(data)))).toEqual({
      logins: [
        {
          at: 'item 1',
          title: 'Wrapped',
          url: 'https://wrapped.example.com',
          username: 'ann@example.com',
          password: 's3cret-wrapped',
        },
      ],
      skipped: [{ at: 'item 2', title: 'Gone', reason: 'in the 1Password trash' }],
    });
  });
});

describe('parseExport: KeePassXC CSV', () => {
  it('reads the 2.7 columns (TOTP URI, quoted quotes, multi-line notes); the recycle bin is skipped', () => {
    const { logins, skipped } = parseExport('keepassxc', fixture('keepassxc.csv'));
    expect(skipped).toEqual([{ at: 'line 7', title: 'Old Example Social', reason: 'in the KeePassXC recycle bin' }]);
    expect(logins.map((l) => [l.at, l.title, l.url ?? null, l.username])).toEqual([
      ['line 2', 'Example Social', 'https://social.example.com/login', 'ann@example.com'],
      ['line 3', 'Build server', 'ssh://build.example.net', 'deploy'],
      ['line 4', 'Bank PIN', null, ''],
      ['line 6', 'Example Forum', 'forum.example.org', 'ann'],
      ['line 8', 'Example Forum (copy)', 'https://forum.example.org/login', 'ANN'],
    ]);
    expect(logins[0].totpSecret).toMatch(
      /^otpauth:\/\/totp\/Example%20Social:ann%40example\.com\?secret=JBSWY3DPEHPK3PXP/,
    );
    expect(logins[1].notes).toBe('Key in ~/.ssh, "deploy" user');
    expect(logins[2].notes).toBe('Card ending 1111\nPIN only, no website');
  });

  it('reads a KeePassXC 2.6 export (6 columns, no TOTP)', () => {
    const csv =
      '"Group","Title","Username","Password","URL","Notes"\n"Root","Example","ann","s3cret-kp-old","https://example.com",""\n';
    expect(parseExport('keepassxc', csv).logins).toEqual([
      { at: 'line 2', title: 'Example', url: 'https://example.com', username: 'ann', password: 's3cret-kp-old' },
    ]);
  });
});

describe('parseExport: text handling shared by all CSV formats', () => {
  it('decodes UTF-16 (a file re-saved as "Unicode" on Windows) and skips blank lines and all-empty records', () => {
    const text =
      '\uFEFFname,url,username,password,note\r\n\r\nexample.com,https://example.com/,zoë,s3cret-ü,\r\n,,,,\r\n';
    const utf16 = new Uint8Array(Buffer.from(text, 'utf16le'));
    expect(parseExport('chrome', utf16).logins).toEqual([
      { at: 'line 3', title: 'example.com', url: 'https://example.com/', username: 'zoë', password: 's3cret-ü' },
    ]);
  });

  it('matches the header case-insensitively and in any order', () => {
    const csv = 'PASSWORD,Username,URL\ns3cret-any-order,ann,https://example.com\n';
    expect(parseExport('firefox', csv).logins).toEqual([
      { at: 'line 2', url: 'https://example.com', username: 'ann', password: 's3cret-any-order' },
    ]);
  });

  it('lists the six formats', () => {
    expect(IMPORT_FORMATS).toEqual(['chrome', 'firefox', 'safari', 'bitwarden', '1password', 'keepassxc']);
  });
});
