// scripts/signing-secrets.mjs: per OS job of the release workflow, which signing and notarization secrets are set
// and which are missing, as a warning annotation and a job-summary table, by name only: no value is ever printed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  escapeData,
  escapeProperty,
  main,
  SIGNING_REQUIREMENTS,
  signingCheck,
  summaryMarkdown,
  warningCommands,
} from '../../../scripts/signing-secrets.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { tempDir } from '../../helpers/temp-dir.js';

const MAC = ['CSC_LINK', 'CSC_KEY_PASSWORD', 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'];
const WIN = ['WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD'];

/** Each named variable set to a value that must never be printed; the others empty, as GitHub passes them. */
const envWith = (names: string[]) =>
  Object.fromEntries([...MAC, ...WIN].map((n) => [n, names.includes(n) ? `VALUE-OF-${n}-s3cr3t` : '']));

/** Run main and collect what it prints. */
function run(platform: NodeJS.Platform, env: NodeJS.ProcessEnv) {
  let out = '';
  const check = main({ platform, env, out: { write: (t: string) => (out += t) } });
  return { check, out };
}

describe('which secrets each OS job checks', () => {
  it('macOS: the Developer ID certificate and its password, and the three notarization secrets', () => {
    expect(signingCheck('darwin', {}).rows.map((r) => r.name)).toEqual(MAC);
  });

  it('Windows: WIN_CSC_LINK and its password only (CSC_LINK, the Apple certificate, does not sign Windows)', () => {
    expect(signingCheck('win32', {}).rows.map((r) => r.name)).toEqual(WIN);
    const onlyMacCert = signingCheck('win32', envWith(['CSC_LINK', 'CSC_KEY_PASSWORD']));
    expect(onlyMacCert.gaps.map((g) => g.missing)).toEqual([WIN]);
  });

  it('Linux: nothing to sign, no warning, and the summary says so', () => {
    const { check, out } = run('linux', {});
    expect(check.signs).toBe(false);
    expect(out).not.toContain('::warning');
    expect(out).toMatch(/not code-signed; there are no signing secrets to check/);
  });
});

describe('macOS', () => {
  it('with every secret set: no warning; the summary says signed and notarized', () => {
    const { out } = run('darwin', envWith(MAC));
    expect(out).not.toContain('::warning');
    expect(out).toMatch(/signed and notarized/);
    expect(out.match(/\| set \|/g)).toHaveLength(5);
  });

  it('with none: one warning for signing and one for notarization, each naming its missing secrets', () => {
    const { out } = run('darwin', envWith([]));
    const warnings = out.split('\n').filter((l) => l.startsWith('::warning'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^::warning title=macOS installers%3A no code signing::Missing repository secrets/);
    expect(warnings[0]).toContain('CSC_LINK, CSC_KEY_PASSWORD');
    expect(warnings[1]).toContain('APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID');
    expect(out.match(/\*\*missing\*\*/g)).toHaveLength(5);
  });

  it('with some of a step set: names only the missing ones and says the build may fail', () => {
    const check = signingCheck('darwin', envWith(['CSC_LINK', 'CSC_KEY_PASSWORD', 'APPLE_ID']));
    expect(check.gaps).toHaveLength(1);
    expect(check.gaps[0].missing).toEqual(['APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID']);
    expect(check.gaps[0].consequence).toMatch(/needs all of them; with only some, electron-builder stops the build/);
  });

  it('a variable of spaces counts as missing', () => {
    expect(signingCheck('darwin', { ...envWith(MAC), CSC_LINK: '  ' }).gaps[0].missing).toEqual(['CSC_LINK']);
  });
});

describe('Windows', () => {
  it('without the certificate: a warning naming WIN_CSC_LINK and WIN_CSC_KEY_PASSWORD, SmartScreen as the cost', () => {
    const [warning, ...rest] = warningCommands(signingCheck('win32', envWith([])));
    expect(rest).toEqual([]);
    expect(warning).toMatch(/^::warning title=Windows installers%3A no code signing::/);
    expect(warning).toContain('Missing repository secrets: WIN_CSC_LINK, WIN_CSC_KEY_PASSWORD.');
    expect(warning).toContain('SmartScreen');
  });

  it('with both set: no warning', () => {
    expect(warningCommands(signingCheck('win32', envWith(WIN)))).toEqual([]);
  });
});

describe('output', () => {
  it.each(['darwin', 'win32', 'linux'] as const)('on %s never contains a value, set or not', (platform) => {
    for (const names of [[], MAC, WIN, [...MAC, ...WIN], ['CSC_LINK', 'WIN_CSC_KEY_PASSWORD']]) {
      const env = envWith(names);
      const { out } = run(platform, env);
      for (const value of Object.values(env).filter(Boolean)) expect(out).not.toContain(value);
      expect(out).not.toMatch(/s3cr3t/);
    }
  });

  it('escapes workflow-command text as GitHub reads it', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a: b, c')).toBe('a%3A b%2C c');
  });

  it('the summary is a table with one row per secret', () => {
    const md = summaryMarkdown(signingCheck('win32', envWith(['WIN_CSC_LINK'])));
    expect(md).toContain('### Code signing: Windows');
    expect(md).toContain('| `WIN_CSC_LINK` | the Authenticode certificate (.pfx/.p12, base64 or an https URL) | set |');
    expect(md).toContain("| `WIN_CSC_KEY_PASSWORD` | the certificate's password | **missing** |");
    expect(md).toMatch(/- \*\*No code signing\*\* \(missing `WIN_CSC_KEY_PASSWORD`\): code signing needs all of them;/);
  });

  it('every requirement names a purpose and a consequence', () => {
    for (const steps of Object.values(SIGNING_REQUIREMENTS))
      for (const step of steps) {
        expect(step.without).not.toBe('');
        for (const what of Object.values(step.secrets)) expect(what).not.toBe('');
      }
  });
});

describe('run as the workflow runs it', () => {
  it('prints the warnings, appends the table to $GITHUB_STEP_SUMMARY, prints no value, and exits 0', () => {
    const summary = path.join(tempDir(), 'summary.md');
    fs.writeFileSync(summary, '# earlier step\n');
    const res = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'signing-secrets.mjs')], {
      env: { PATH: process.env.PATH, ...envWith(['CSC_LINK', 'WIN_CSC_LINK']), GITHUB_STEP_SUMMARY: summary },
      encoding: 'utf8',
    });
    expect(res.status).toBe(0);
    const written = fs.readFileSync(summary, 'utf8');
    expect(written.startsWith('# earlier step\n### Code signing: ')).toBe(true);
    if (process.platform === 'linux') expect(res.stdout).toBe('');
    else expect(res.stdout).toContain('::warning title=');
    for (const text of [res.stdout, res.stderr, written]) expect(text).not.toMatch(/s3cr3t/);
  });
});
