// Every GitHub workflow in .github/workflows/ is checked offline against the workflow schema by action-validator
// (its WebAssembly build from npm), so a broken CI file fails here, before a push shows it. The linter is first
// shown to catch broken samples, so a pass means something.
import fs from 'node:fs';
import path from 'node:path';
import { validateWorkflow, type ValidationError } from '@action-validator/core';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const WORKFLOWS = path.join(REPO_ROOT, '.github', 'workflows');

/** One line per problem (nested oneOf branches flattened), empty when the workflow is valid. */
function lintWorkflow(source: string): string[] {
  const lines: string[] = [];
  const walk = (errors: ValidationError[]) => {
    for (const e of errors) {
      lines.push(`${'path' in e ? e.path || '/' : '/'}: ${e.title}${e.detail ? ` (${e.detail})` : ''}`);
      if ('states' in e && e.states) for (const s of e.states) walk(s.errors);
    }
  };
  walk(validateWorkflow(source).errors);
  return lines;
}

const workflowFiles = fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));

describe('GitHub workflow files', () => {
  it('the linter rejects broken workflows: an unknown key, a step with both run and uses, bad YAML', () => {
    const ok = 'name: ok\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n';
    expect(lintWorkflow(ok)).toEqual([]);
    const unknownKey = ok.replace('steps:', 'stepz:');
    expect(lintWorkflow(unknownKey).join('\n')).toMatch(/Additional property 'stepz' is not allowed/);
    const runAndUses = ok.replace('- run: echo hi', '- run: echo hi\n        uses: actions/checkout@v4');
    expect(lintWorkflow(runAndUses)).not.toEqual([]);
    expect(lintWorkflow('name: [broken\n').join('\n')).toMatch(/Parse Error/);
  });

  it('there are workflows, ci.yml among them', () => {
    expect(workflowFiles).toContain('ci.yml');
  });

  it.each(workflowFiles)('%s is a valid workflow', (file) => {
    expect(lintWorkflow(fs.readFileSync(path.join(WORKFLOWS, file), 'utf8'))).toEqual([]);
  });

  it('ci.yml runs .ci/run with the Node of .nvmrc (the one the bootstrap provisions)', () => {
    const ci = fs.readFileSync(path.join(WORKFLOWS, 'ci.yml'), 'utf8');
    expect(ci).toMatch(/node-version-file: \.nvmrc/);
    expect(ci).toMatch(/run: bash \.ci\/run/);
    expect(fs.readFileSync(path.join(REPO_ROOT, '.nvmrc'), 'utf8').trim()).toMatch(/^\d+$/);
  });

  it('ci.yml runs on Linux, macOS and Windows; only the Linux job is required (the others may fail, said why)', () => {
    const ci = fs.readFileSync(path.join(WORKFLOWS, 'ci.yml'), 'utf8');
    expect(ci).toMatch(/os: \[ubuntu-latest, macos-latest, windows-latest\]/);
    expect(ci).toMatch(/runs-on: \$\{\{ matrix\.os \}\}/);
    expect(ci).toMatch(/continue-on-error: \$\{\{ matrix\.os != 'ubuntu-latest' \}\}/);
    expect(ci).toMatch(/# macOS and Windows cannot pass yet: .*Linux-only/);
    expect(ci).toMatch(/fail-fast: false/);
  });
});
