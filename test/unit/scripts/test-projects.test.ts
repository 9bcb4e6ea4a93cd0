import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../../vitest.config.js';

/**
 * vitest.config.ts runs test/unit in a project whose files share their worker's modules and test/integration and
 * test/e2e in an isolated one. A test file anywhere else would match no project and silently never run.
 */
const root = path.resolve(import.meta.dirname, '../../..');

function testFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return rel === 'test/fixtures' ? [] : testFiles(rel);
    return e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

describe('vitest projects', () => {
  const projects = (config.test?.projects ?? []) as { test: { name: string; include: string[]; isolate?: boolean } }[];

  it('cover every test folder: unit shares modules, integration and e2e are isolated', () => {
    expect(projects.map((p) => [p.test.name, p.test.include, p.test.isolate ?? true])).toEqual([
      ['unit', ['test/unit/**/*.test.ts'], false],
      ['integration', ['test/{integration,e2e}/**/*.test.ts'], true],
    ]);
    const folders = new Set(testFiles('test').map((f) => f.split('/')[1]));
    expect([...folders].sort()).toEqual(['e2e', 'integration', 'unit']);
  });
});
