// The docs hold together (issue 45): every relative link of README.md and the guides reaches a file, and its #anchor a
// heading there; every place the code cites a guide names a heading that exists, in the one form the code uses,
// `docs/<guide>.md#<anchor>` (the anchor GitHub gives the heading); and README.md stays a short entry into docs/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles, headingAnchors, isRelative, linksOf } from '../../helpers/markdown.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const anchorsOf = new Map<string, string[]>();
const anchors = (file: string) => {
  if (!anchorsOf.has(file)) anchorsOf.set(file, headingAnchors(read(file)));
  return anchorsOf.get(file)!;
};

/** What is wrong with a link to `target` from `fromFile` (repository-relative), or null when it resolves. */
function brokenLink(fromFile: string, target: string): string | null {
  const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = rawPath
    ? path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), decodeURIComponent(rawPath)))
    : fromFile;
  if (file.startsWith('..')) return `${target}: outside the repository`;
  if (!fs.existsSync(path.join(REPO_ROOT, file))) return `${target}: no file ${file}`;
  if (anchor === undefined || !file.endsWith('.md')) return null;
  return anchors(file).includes(anchor) ? null : `${target}: ${file} has no heading with the anchor #${anchor}`;
}

/** The files of the code that may cite the docs: sources, tests, scripts, benchmarks, CI and build configuration. */
function codeFiles(): string[] {
  const roots = ['src', 'test', 'scripts', 'bench', '.github', '.ci', 'security'];
  const single = ['electron-builder.yml', 'electron.vite.config.ts', 'eslint.config.mjs', 'vitest.config.ts'];
  const code = /\.(ts|tsx|mts|mjs|js|cjs|sh|yml|yaml|json)$|^\.ci\/run$/;
  return [
    ...roots.flatMap((root) =>
      fs
        .readdirSync(path.join(REPO_ROOT, root), { recursive: true, encoding: 'utf8' })
        .map((f) => path.posix.join(root, f.split(path.sep).join('/')))
        .filter((f) => code.test(f) && !f.startsWith('bench/results/') && !f.includes('/node_modules/')),
    ),
    ...single,
  ].filter((f) => fs.statSync(path.join(REPO_ROOT, f)).isFile());
}

/** `docs/<guide>.md#<anchor>`, `README.md#<anchor>` or `bench/results/<file>.md#<anchor>`, anchor optional. */
const CITATION = /(?<![\w./-])((?:docs|bench\/results)\/[\w.-]+\.md|README\.md)(#[\w-]+)?/g;

describe('links in README.md and docs/', () => {
  it('every relative link reaches a file of the repository, and its #anchor a heading of that file', () => {
    const broken = docFiles().flatMap((file) =>
      linksOf(read(file))
        .filter(({ target }) => isRelative(target))
        .map(({ target, line }) => [`${file}:${line}`, brokenLink(file, target)] as const)
        .filter(([, problem]) => problem !== null)
        .map(([at, problem]) => `${at} ${problem}`),
    );
    expect(broken).toEqual([]);
  });

  it('README.md is at most 250 lines and leads into the guides, docs/agents.md among them', () => {
    const readme = read('README.md');
    expect(readme.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(250);
    const targets = linksOf(readme).map(({ target }) => target.split('#')[0]);
    expect(targets).toContain('docs/agents.md');
    const guides = fs.readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    expect(guides.filter((g) => !targets.includes(`docs/${g}`))).toEqual([]);
  });
});

describe('the code cites the docs by file and heading', () => {
  const files = codeFiles();

  it('finds the code to look at', () => {
    expect(files).toContain('src/shared/scopes.ts');
    expect(files).toContain('electron-builder.yml');
  });

  it('every citation of a guide names a file and a heading that exist', () => {
    const broken = files.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((text, i) =>
          [...text.matchAll(CITATION)].map((m) => [`${file}:${i + 1}`, brokenLink('', m[1] + (m[2] ?? ''))] as const),
        )
        .filter(([, problem]) => problem !== null)
        .map(([at, problem]) => `${at} ${problem}`),
    );
    expect(broken).toEqual([]);
  });

  it('no citation in another form: the word README only as a path to a file', () => {
    const self = path
      .relative(REPO_ROOT, import.meta.filename)
      .split(path.sep)
      .join('/');
    const loose = files
      .filter((file) => file !== self) // this test names the word to look for it
      .flatMap((file) =>
        read(file)
          .split('\n')
          .map((text, i) => [`${file}:${i + 1}`, text] as const)
          .filter(([, text]) => /\bREADME\b(?!\.md)/.test(text))
          .map(([at, text]) => `${at} ${text.trim()}`),
      );
    expect(loose).toEqual([]);
  });
});
