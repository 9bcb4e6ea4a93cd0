// scripts/electron-scan-gate.mjs: which electronegativity findings fail npm test, on sample findings shaped
// like the scanner's (the real scanner runs in test/unit/scripts/electron-scan.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AllowlistError,
  judgeScan,
  parseAllowlist,
  type AllowlistEntry,
  type ScanFinding,
} from '../../../scripts/electron-scan-gate.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const finding = (over: Partial<ScanFinding> & Pick<ScanFinding, 'check' | 'severity'>): ScanFinding => ({
  file: 'src/main/electron/main-window.ts',
  line: 30,
  column: 6,
  code: 'preload: path.resolve(opts.preloadPath),',
  description: 'Review the use of preload scripts',
  ...over,
});
const entry = (over: Partial<AllowlistEntry> & Pick<AllowlistEntry, 'check'>): AllowlistEntry => ({
  file: 'src/main/electron/main-window.ts',
  reason: 'Reviewed: the preload exposes named functions only.',
  ...over,
});

const PRELOAD = finding({ check: 'PRELOAD_JS_CHECK', severity: 'MEDIUM' });
const CSP_NOTE = finding({
  check: 'CSP_GLOBAL_CHECK',
  severity: 'LOW',
  file: 'src/renderer/index.html',
  code: "default-src 'self'",
  description: 'Vulnerable directives',
});

describe('judgeScan', () => {
  it('fails on a HIGH or MEDIUM finding that no entry covers, naming check, place and code', () => {
    const high = finding({
      check: 'CONTEXT_ISOLATION_JS_CHECK',
      severity: 'HIGH',
      line: 12,
      column: 2,
      code: 'contextIsolation: false,',
      description: 'Disabling contextIsolation',
    });
    const { problems } = judgeScan({ findings: [PRELOAD, high], allowlist: [] });
    expect(problems).toEqual([
      'MEDIUM PRELOAD_JS_CHECK src/main/electron/main-window.ts:30:6: Review the use of preload scripts\n' +
        '    preload: path.resolve(opts.preloadPath),',
      'HIGH CONTEXT_ISOLATION_JS_CHECK src/main/electron/main-window.ts:12:2: Disabling contextIsolation\n' +
        '    contextIsolation: false,',
    ]);
  });

  it('passes a covered finding, and reports LOW and INFORMATIONAL findings without failing', () => {
    const info = finding({ check: 'AUXCLICK_JS_CHECK', severity: 'INFORMATIONAL', description: 'Auxclick' });
    const { problems, lines } = judgeScan({
      findings: [PRELOAD, CSP_NOTE, info],
      allowlist: [entry({ check: 'PRELOAD_JS_CHECK', code: 'preload: path.resolve(opts.preloadPath),' })],
    });
    expect(problems).toEqual([]);
    expect(lines).toEqual([
      '  allowed  MEDIUM PRELOAD_JS_CHECK src/main/electron/main-window.ts:30:6 (reason in the allowlist)',
      '  note     LOW CSP_GLOBAL_CHECK src/renderer/index.html:30:6: Vulnerable directives',
      '  note     INFORMATIONAL AUXCLICK_JS_CHECK src/main/electron/main-window.ts:30:6: Auxclick',
    ]);
  });

  it('an entry pinned to a line of code stops covering the finding when that line changes', () => {
    const pinned = entry({ check: 'PRELOAD_JS_CHECK', code: 'preload: path.resolve(opts.preloadPath),' });
    const changed = { ...PRELOAD, code: 'preload: untrustedPath,' };
    const { problems } = judgeScan({ findings: [changed], allowlist: [pinned] });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^MEDIUM PRELOAD_JS_CHECK .*\n {4}preload: untrustedPath,$/);
    expect(problems[1]).toBe(
      'stale allowlist entry PRELOAD_JS_CHECK src/main/electron/main-window.ts: it matches no finding any more; remove it',
    );
    // Without `code` the entry covers the check anywhere in that file, and nowhere else.
    const fileWide = entry({ check: 'PRELOAD_JS_CHECK' });
    expect(judgeScan({ findings: [changed], allowlist: [fileWide] }).problems).toEqual([]);
    const elsewhere = { ...PRELOAD, file: 'src/main/electron/other-window.ts' };
    expect(judgeScan({ findings: [elsewhere], allowlist: [fileWide] }).problems).toHaveLength(2);
  });

  it('raises an explicit nodeIntegration: true (INFORMATIONAL in the scanner) to HIGH', () => {
    const nodeIntegration = finding({
      check: 'NODE_INTEGRATION_JS_CHECK',
      severity: 'INFORMATIONAL',
      code: 'nodeIntegration: true,',
      description: 'Node integration enabled',
    });
    const { findings, problems } = judgeScan({ findings: [nodeIntegration], allowlist: [] });
    expect(findings[0]!.severity).toBe('HIGH');
    expect(problems).toEqual([
      'HIGH NODE_INTEGRATION_JS_CHECK src/main/electron/main-window.ts:30:6: Node integration enabled\n' +
        '    nodeIntegration: true,',
    ]);
  });

  it('fails on a file the scanner could not parse, but not on one it marks tolerable', () => {
    const { problems } = judgeScan({
      findings: [],
      errors: [
        { file: 'src/main/broken.ts', message: 'Unexpected token (3:4)', tolerable: false },
        { file: 'src/renderer/styles.css', message: 'not a script', tolerable: true },
      ],
      allowlist: [],
    });
    expect(problems).toEqual(['src/main/broken.ts could not be parsed, so it was not checked: Unexpected token (3:4)']);
  });
});

describe('parseAllowlist', () => {
  it('accepts entries with check, file, an optional code and a reason', () => {
    const entries = [entry({ check: 'PRELOAD_JS_CHECK' }), entry({ check: 'OPEN_EXTERNAL_JS_CHECK', code: 'x' })];
    expect(parseAllowlist({ about: 'text', entries })).toEqual(entries);
  });

  it.each([
    [{}, 'expected an object with an "entries" array'],
    [{ entries: [{ file: 'a.ts', reason: 'A reason that is long enough.' }] }, 'entries[0] needs a non-empty "check"'],
    [{ entries: [{ check: 'X', file: ' ', reason: 'A reason that is long enough.' }] }, 'needs a non-empty "file"'],
    [{ entries: [{ check: 'X', file: 'a.ts', reason: 'ok' }] }, '"reason" must say why the finding is acceptable'],
    [{ entries: [{ check: 'X', file: 'a.ts', code: 3, reason: 'A reason that is long enough.' }] }, '"code" must be'],
  ])('refuses %j', (data, message) => {
    expect(() => parseAllowlist(data, 'allow.json')).toThrow(AllowlistError);
    expect(() => parseAllowlist(data, 'allow.json')).toThrow(message);
  });

  it("the repository's allowlist is valid and every entry has a reason", () => {
    const file = path.join(REPO_ROOT, 'security', 'electronegativity-allowlist.json');
    const entries = parseAllowlist(JSON.parse(fs.readFileSync(file, 'utf8')), file);
    expect(entries.length).toBeGreaterThan(0);
  });
});
