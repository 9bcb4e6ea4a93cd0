// .github/workflows/release.yml, read as GitHub reads it: every job has a time limit, Electron's downloads are
// cached, the uploaded artifacts have names without spaces (the installers' own names: electron-builder.yml), and
// each OS job says which signing secrets it lacks (scripts/signing-secrets.mjs) without being given their values,
// and the TypeScript client's npm tarball goes to the release with the installers.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIGNING_REQUIREMENTS } from '../../../scripts/signing-secrets.mjs';
import { REPO_ROOT } from '../../helpers/repo-root.js';

// js-yaml comes with electron-builder (it reads electron-builder.yml with it); it ships no types.
const { load } = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Job {
  'timeout-minutes'?: number;
  needs?: string | string[];
  steps: Step[];
}

const workflow = load(fs.readFileSync(path.join(REPO_ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as {
  jobs: Record<string, Job>;
};

describe('the release workflow', () => {
  it('limits every job in time', () => {
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(job['timeout-minutes'], name).toBeGreaterThan(0);
      expect(job['timeout-minutes'], name).toBeLessThanOrEqual(60);
    }
  });

  it("caches Electron's and electron-builder's downloads in the folder both are pointed at, before npm ci", () => {
    const steps = workflow.jobs.dist!.steps;
    const setup = steps.findIndex((s) => s.run?.includes('electron_config_cache='));
    const cache = steps.findIndex((s) => s.uses?.startsWith('actions/cache@'));
    const install = steps.findIndex((s) => s.run === 'npm ci');
    expect(setup).toBeGreaterThanOrEqual(0);
    expect(steps[setup]!.run).toContain('ELECTRON_BUILDER_CACHE=');
    expect(cache).toBeGreaterThan(setup);
    expect(install).toBeGreaterThan(cache);
    const folder = steps[cache]!.with!.path!;
    for (const variable of ['electron_config_cache', 'ELECTRON_BUILDER_CACHE'])
      expect(steps[setup]!.run).toMatch(new RegExp(`${variable}=${folder.replace(/[$.{}]/g, '\\$&')}/`));
    expect(steps[cache]!.with!.key).toContain("hashFiles('package-lock.json'");
  });

  it('uploads artifacts with names without spaces, and fails the build on an installer name with one', () => {
    const upload = workflow.jobs.dist!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    const guide = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'desktop-app.md'), 'utf8');
    for (const os of ['macOS', 'Windows', 'Linux']) {
      const name = upload!.with!.name!.replace(/\$\{\{\s*runner\.os\s*\}\}/g, os);
      expect(name).toMatch(/^[\w.-]+$/);
      expect(guide).toContain(`\`${name}\``);
    }
    expect(workflow.jobs.dist!.steps.some((s) => s.name === 'Installer names have no spaces')).toBe(true);
  });

  it('says in each OS job which signing secrets are missing, before the build, from their names alone', () => {
    const steps = workflow.jobs.dist!.steps;
    const check = steps.findIndex((s) => s.run === 'node scripts/signing-secrets.mjs');
    const build = steps.findIndex((s) => s.run === 'npm run dist');
    expect(check).toBeGreaterThanOrEqual(0);
    // before npm ci and the build: the warning shows even when they fail
    expect(check).toBeLessThan(steps.findIndex((s) => s.run === 'npm ci'));
    expect(check).toBeLessThan(build);
    // no `if:`: every OS job runs it (Linux says it has nothing to sign)
    expect(Object.keys(steps[check]!)).not.toContain('if');

    // The secrets the build is given are the ones checked, and the ones the script knows for macOS and Windows.
    const secretsOf = (text: string) => new Set([...text.matchAll(/secrets\.(\w+)/g)].map((m) => m[1]));
    const built = secretsOf(JSON.stringify(steps[build]!.env));
    const checked = steps[check]!.env!;
    expect(new Set(Object.keys(checked))).toEqual(built);
    const known = Object.values(SIGNING_REQUIREMENTS).flatMap((os) => os.flatMap((step) => Object.keys(step.secrets)));
    expect(new Set(known)).toEqual(built);

    // Each variable is "set" or empty, computed from its own secret: the step never holds a secret's value.
    for (const [name, value] of Object.entries(checked))
      expect(value, name).toBe(`\${{ secrets.${name} != '' && 'set' || '' }}`);
  });

  it('packs the TypeScript client (npm run build:client, npm pack) and attaches the tarball to the release', () => {
    const steps = workflow.jobs['client-package']!.steps;
    const pack = steps.find((s) => s.run?.includes('npm pack ./clients/typescript --pack-destination client-package'));
    expect(pack?.run).toContain('npm run build:client');
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload!.with!.path).toBe('client-package/*.tgz');
    expect(upload!.with!['if-no-files-found']).toBe('error');
    // the release job attaches every artifact it downloads: the installers and this one
    expect(workflow.jobs.release!.needs).toEqual(['dist', 'client-package']);
  });

  it("attaches the update files next to the installers, and a prerelease tag as a prerelease (not GitHub's latest)", () => {
    const upload = workflow.jobs.dist!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    const paths = upload!.with!.path!.split('\n').map((p) => p.trim());
    for (const file of ['dist/latest*.yml', 'dist/beta*.yml', 'dist/*.blockmap']) expect(paths).toContain(file);
    const attach = workflow.jobs.release!.steps.find((s) => s.uses?.startsWith('softprops/action-gh-release@'));
    expect(attach!.with!.prerelease).toBe("${{ contains(github.ref_name, '-') }}");
  });
});
