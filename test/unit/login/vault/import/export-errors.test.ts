import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  ExportFileError,
  parseExport,
  type ImportFormat,
} from '../../../../../src/main/core/login/vault/import/export-formats.js';
import { syntaxErrorOffset } from '../../../../../src/main/core/login/vault/import/json.js';
import { SECRET_MARKERS, fixture, fixtureText, onePux } from './fixtures.js';

/** The ExportFileError that parsing throws (the test fails when nothing, or something else, is thrown). */
function failure(format: ImportFormat, content: Uint8Array | string): ExportFileError {
  try {
    parseExport(format, content);
  } catch (err) {
    expect(err).toBeInstanceOf(ExportFileError);
    return err as ExportFileError;
  }
  throw new Error('expected an ExportFileError');
}

const CHROME_HEADER = 'name,url,username,password,note\n';

describe('ExportFileError: missing columns', () => {
  it('names the expected columns, the missing ones and the ones found, on line 1', () => {
    const err = failure('safari', fixture('chrome-no-note.csv'));
    expect(err.line).toBe(1);
    expect(err.message).toContain('line 1');
    expect(err.message).toContain('Title, URL, Username, Password');
    expect(err.message).toContain('missing: Title');
    expect(err.message).toContain('found: name, url, username, password');
    expect(err.message).toContain('looks like a Chrome/Edge export');
  });

  it('repeats no unknown header cell: a file without a header would show its first row', () => {
    const headerless = 'example.com,https://example.com/,ann,s3cret-headerless,\n';
    const err = failure('chrome', headerless);
    expect(err.message).toContain('found: none of them (and 5 other columns)');
    expect(err.message).not.toContain('s3cret');
    expect(err.message).not.toContain('ann');
  });

  it('an empty file', () => {
    expect(failure('firefox', '').line).toBe(1);
    expect(failure('keepassxc', new Uint8Array([0xef, 0xbb, 0xbf])).message).toContain('empty');
  });
});

describe('ExportFileError: malformed CSV, with csv-parse’s line and column', () => {
  it('an unclosed quote: the line its record starts on and the field', () => {
    const csv = `${CHROME_HEADER}a.example.com,https://a.example.com/,ann,s3cret-a,\nb.example.com,https://b.example.com/,bob,"s3cret-b,never closed\nc.example.com,https://c.example.com/,carl,s3cret-c,\n`;
    const err = failure('chrome', csv);
    expect([err.line, err.column]).toEqual([3, 4]);
    expect(err.message).toMatch(/^line 3, column 4: a quoted field is never closed/);
  });

  it('an unclosed quote after a multi-line field counts physical lines (CRLF inside quotes too)', () => {
    const header = CHROME_HEADER.replace('\n', '\r\n');
    const csv = `${header}a.example.com,https://a.example.com/,ann,s3cret-a,"two\r\nlines"\r\nb.example.com,https://b.example.com/,bob,s3cret-b,"open\r\n`;
    expect([failure('chrome', csv).line, failure('chrome', csv).column]).toEqual([4, 5]);
  });

  it('too few and too many fields: the first missing or extra column', () => {
    const fewer = failure('chrome', `${CHROME_HEADER}\na.example.com,https://a.example.com/,ann\n`);
    expect([fewer.line, fewer.column]).toEqual([3, 4]);
    expect(fewer.message).toBe('line 3, column 4: this record has 3 fields, the header 5');
    const more = failure('firefox', fixtureText('firefox.csv').replace('"dave",', '"dave","extra",'));
    expect([more.line, more.column]).toEqual([5, 10]);
  });

  it('a quote inside an unquoted field, and text after a closing quote', () => {
    const inside = failure('chrome', `${CHROME_HEADER}a.example.com,https://a.example.com/,ann,s3cr"et,\n`);
    expect([inside.line, inside.column]).toEqual([2, 4]);
    const after = failure(
      'keepassxc',
      fixtureText('keepassxc.csv').replace('"Example Forum","ann"', '"Example Forum"x,"ann"'),
    );
    expect([after.line, after.column]).toEqual([6, 2]);
  });
});

describe('ExportFileError: JSON exports', () => {
  it('invalid JSON gives the line and column, also where V8 quotes the text instead of a position', () => {
    const broken = fixtureText('bitwarden.json').replace(
      '"password": "s3cret-bw-json-2"',
      '"password": s3cret-bw-json-2',
    );
    const err = failure('bitwarden', broken);
    const lines = broken.split('\n');
    const line = lines.findIndex((l) => l.includes('s3cret-bw-json-2')) + 1;
    expect([err.line, err.column]).toEqual([line, lines[line - 1].indexOf('s3cret') + 1]);
    expect(err.message).toMatch(new RegExp(`^line ${line}, column \\d+: this Bitwarden export is not valid JSON$`));

    const cut = failure('bitwarden', '{\n  "encrypted": false,\n  "items": [');
    expect([cut.line, cut.column]).toEqual([3, 13]);
    expect(cut.message).toContain('cut off');

    const comma = failure('bitwarden', '{\n  "encrypted": false,\n  "items": [],\n}');
    expect([comma.line, comma.column]).toEqual([4, 1]);
  });

  it('an encrypted or password-protected Bitwarden export asks for an unencrypted one', () => {
    for (const name of ['bitwarden-encrypted.json', 'bitwarden-password-protected.json']) {
      const err = failure('bitwarden', fixture(name));
      expect(err.message).toContain('encrypted');
      expect(err.message).toContain('unencrypted');
    }
    expect(failure('bitwarden', fixture('bitwarden-password-protected.json')).message).toContain('with a password');
  });

  it('a JSON export of the wrong shape names the JSON path', () => {
    expect(failure('bitwarden', '{"encrypted": false, "folders": []}').message).toMatch(/^\$\.items: /);
    const badItem = failure('bitwarden', '{"items": [{"type": 1, "login": {"username": ["s3cret-in-a-list"]}}]}');
    expect(badItem.message).toMatch(/^\$\.items\[0\]\.login\.username: expected a text value/);
    expect(badItem.message).not.toContain('s3cret');
    expect(failure('1password', '{"accounts": [{"vaults": [{"items": [42]}]}]}').message).toMatch(
      /^\$\.accounts\[0\]\.vaults\[0\]\.items\[0\]: expected an object/,
    );
    expect(failure('1password', onePux('{"vaults": []}')).message).toMatch(/^\$\.accounts: /);
  });

  it('1PUX: a broken ZIP, a ZIP without export.data, invalid export.data, a ZIP for another format', () => {
    const zip = onePux();
    expect(failure('1password', zip.slice(0, 40)).message).toContain('not a readable ZIP');
    expect(failure('1password', zipSync({ 'notes.txt': strToU8('hello') })).message).toContain('no export.data');
    const err = failure('1password', onePux('{"accounts": [\n  {"vaults": [}\n]}'));
    expect([err.line, err.column]).toEqual([2, 15]);
    expect(err.message).toContain('1PUX export.data is not valid JSON');
    expect(failure('chrome', zip).message).toContain('ZIP file');
    expect(failure('1password', Buffer.from(zip).toString('latin1')).message).toContain('as bytes');
  });
});

describe('no secret in any error message', () => {
  const broken: Array<[ImportFormat, string | Uint8Array]> = [];
  for (const [format, name] of [
    ['chrome', 'chrome-windows.csv'],
    ['firefox', 'firefox.csv'],
    ['safari', 'safari.csv'],
    ['bitwarden', 'bitwarden.csv'],
    ['1password', '1password.csv'],
    ['keepassxc', 'keepassxc.csv'],
  ] as const) {
    const text = fixtureText(name);
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const body = text.slice(text.indexOf('\n') + 1);
    broken.push(
      [format, text.replace(/s3cret/g, '"s3cret')], // an opening quote in the middle of a field
      [format, `${text.trimEnd()}${eol}${body.split(eol)[0].replace(/s3cret/g, 's3cret"x')}`], // a quote in an unquoted field
      [format, `${text.trimEnd()}${eol}"s3cret-unclosed,JBSWY3DPEHPK3PXP,Recovery`], // unclosed quote at the end
      [format, `${text.trimEnd()}${eol}s3cret-short`], // too few fields
      [format, body], // no header: the first row is data
    );
  }
  for (const name of ['bitwarden.json', '1password-export.data.json']) {
    const text = fixtureText(name);
    const format = name.startsWith('bitwarden') ? 'bitwarden' : '1password';
    broken.push(
      [format, text.replace(/"(s3cret[^"]*)"/g, '$1')], // unquoted secrets: V8 quotes the text in its message
      [format, text.replace('"s3cret-', '"s3cret-\u0001')], // a control character inside a string
      [format, text.slice(0, text.indexOf('s3cret') + 12)], // cut off inside a secret
      [
        format,
        format === 'bitwarden'
          ? text.replace('"notes": "Recovery', '"notes": ["Recovery"], "x": "') // a list where text belongs
          : text.replace('"notesPlain": "Shared', '"notesPlain": ["Shared"], "x": "'),
      ],
    );
  }
  broken.push(['1password', onePux(fixtureText('1password-export.data.json').replace(/"(s3cret[^"]*)"/g, '$1'))]);

  it.each(broken.map((b, i) => [i, ...b] as const))('case %i (%s)', (_i, format, content) => {
    const err = failure(format, content);
    for (const marker of SECRET_MARKERS) expect(err.message).not.toContain(marker);
  });
});

describe('the JSON syntax scan (positions V8 does not give)', () => {
  it('finds the first error, or none', () => {
    expect(syntaxErrorOffset('{"a": [1, 2.5e3, true, null, "x\\u00e9\\n"]}')).toBe(-1);
    expect(syntaxErrorOffset('{"a": s3cret}')).toBe(6);
    expect(syntaxErrorOffset('{"a": 1 "b": 2}')).toBe(8);
    expect(syntaxErrorOffset('[01]')).toBe(2);
    expect(syntaxErrorOffset('{"a": "\\x"}')).toBe(8);
    expect(syntaxErrorOffset('{"a": [1, 2')).toBe(11);
    expect(syntaxErrorOffset('{} x')).toBe(3);
  });
});
