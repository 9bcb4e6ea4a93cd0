// docs/architecture.md against the tree and the allow-list: the folder table of section 3 is the one
// scripts/architecture-table.mjs generates from scripts/core-deps.mjs, section 4 names every folder and top-level file
// of src/main/core (and no folder that is gone), and section 7 names every screen folder of the renderer.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedInWords, coreDepsTable, DOC, tableInDoc, unitComments } from '../../../scripts/architecture-table.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const doc = fs.readFileSync(DOC, 'utf8');
const section = (n: number) => {
  const start = doc.indexOf(`\n## ${n}. `);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
};
const dirsUnder = (root: string) =>
  fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();

describe('docs/architecture.md', () => {
  it("section 3's allow-list table is the generated one (node scripts/architecture-table.mjs --write)", () => {
    expect(tableInDoc(doc)).toBe(coreDepsTable());
  });

  it('the generated table says each allow-list in words, groups first', () => {
    expect(allowedInWords(['*'])).toBe('anything');
    expect(allowedInWords([])).toBe('nothing of the core');
    expect(allowedInWords(['config', 'db', 'secrets', 'net', 'tenancy', 'jobs', 'errors.ts', 'login/codes'])).toBe(
      'LOW, `errors.ts`, `login/codes`',
    );
    const { comments, sections } = unitComments(
      "export const CORE_DEPS = {\n  // § top\n  // what a is\n  a: [],\n  'b/c.ts': ['a'], // b's rule\n  d: [],\n};",
    );
    expect(Object.fromEntries(comments)).toEqual({ a: 'what a is', 'b/c.ts': "b's rule" });
    expect(Object.fromEntries(sections)).toEqual({ a: 'top' });
  });

  it('section 4 names every folder of src/main/core, and only folders that exist', () => {
    const folders = section(4)
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split(' | ')[0].matchAll(/`([a-z0-9/.-]+)\/`/g)].map((m) => m[1]));
    const real = dirsUnder(path.join(REPO_ROOT, 'src', 'main', 'core'));
    expect(real.filter((d) => !folders.includes(d))).toEqual([]);
    expect(folders.filter((d) => !real.includes(d))).toEqual([]);
  });

  it('section 4 names every top-level file of src/main/core', () => {
    const files = fs.readdirSync(path.join(REPO_ROOT, 'src', 'main', 'core')).filter((f) => f.endsWith('.ts'));
    const named = section(4)
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => /^\| `([^`]+)`/.exec(line)?.[1]);
    expect(files.filter((f) => !named.includes(f))).toEqual([]);
  });

  it('section 7 names every screen folder of src/renderer/features', () => {
    const screens = fs
      .readdirSync(path.join(REPO_ROOT, 'src', 'renderer', 'features'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    const text = section(7);
    expect(screens.filter((s) => !text.includes(`\`${s}\``))).toEqual([]);
  });
});
