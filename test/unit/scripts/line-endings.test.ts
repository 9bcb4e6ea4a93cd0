// LF pinned for every checkout (Windows' core.autocrlf included): .gitattributes makes Git write LF, and Prettier's
// endOfLine says LF is right, so `npm test`'s format check passes on a Windows clone. The password-manager exports
// keep the CRLF the managers write.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' });

describe('line endings', () => {
  it('Git checks out text files with LF everywhere, the password exports byte for byte', () => {
    const attrs = git(
      'check-attr',
      'text',
      'eol',
      '--',
      'scripts/bootstrap.mjs',
      'test/fixtures/password-exports/x.csv',
    );
    expect(attrs).toContain('scripts/bootstrap.mjs: text: auto');
    expect(attrs).toContain('scripts/bootstrap.mjs: eol: lf');
    expect(attrs).toContain('test/fixtures/password-exports/x.csv: text: unset');
  });

  it('Prettier expects LF', () => {
    const config = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, '.prettierrc.json'), 'utf8')) as {
      endOfLine?: string;
    };
    expect(config.endOfLine).toBe('lf');
  });

  it('no tracked text file is stored with CRLF, except the password exports', () => {
    const crlf = git('ls-files', '--eol')
      .split('\n')
      .filter((line) => /^i\/(crlf|mixed)\b/.test(line))
      .map((line) => line.split('\t')[1]!);
    expect(crlf.filter((file) => !file.startsWith('test/fixtures/password-exports/'))).toEqual([]);
  });
});
