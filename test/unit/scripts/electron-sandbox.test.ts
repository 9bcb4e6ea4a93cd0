// How `npm start` runs the dev Electron's sandbox (scripts/electron-binary.mjs): the decision from the facts of the
// machine (the user, Ubuntu 24.04's AppArmor switch, the chrome-sandbox helper), each given here; and the helper fix
// as root carried out on a real file.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyElectronSandboxPlan,
  electronSandboxFacts,
  electronSandboxPlan,
  type ElectronSandboxFacts,
} from '../../../scripts/electron-binary.mjs';
import { tempDir } from '../../helpers/temp-dir.js';

const ubuntu2404: ElectronSandboxFacts = {
  platform: 'linux',
  uid: 1000,
  apparmorRestrictsUserns: '1',
  helper: '/repo/node_modules/electron/dist/chrome-sandbox',
  helperExists: true,
  helperSetuidRoot: false,
};

describe('the dev Electron sandbox decision', () => {
  it('Ubuntu 24.04, a user, helper not setuid: --no-sandbox, saying why and the two commands that fix it', () => {
    const plan = electronSandboxPlan(ubuntu2404);
    expect(plan).toMatchObject({ fixHelper: false, noSandbox: true });
    expect(plan.why).toContain('kernel.apparmor_restrict_unprivileged_userns=1');
    expect(plan.why).toContain(`sudo chown root:root ${ubuntu2404.helper} && sudo chmod 4755 ${ubuntu2404.helper}`);
  });

  it.each([
    ['the helper is setuid root', { helperSetuidRoot: true }],
    ['AppArmor does not restrict user namespaces', { apparmorRestrictsUserns: '0' }],
    ['the kernel has no such switch (Debian, Fedora, older Ubuntu)', { apparmorRestrictsUserns: null }],
    ['macOS', { platform: 'darwin' as const, apparmorRestrictsUserns: null, helperExists: false }],
    ['Windows', { platform: 'win32' as const, uid: undefined, apparmorRestrictsUserns: null, helperExists: false }],
  ])('sandboxed when %s', (_name, change) => {
    expect(electronSandboxPlan({ ...ubuntu2404, ...change })).toMatchObject({ fixHelper: false, noSandbox: false });
  });

  it('root: --no-sandbox (Chromium refuses it to root); under the AppArmor switch the helper is fixed first', () => {
    expect(electronSandboxPlan({ ...ubuntu2404, uid: 0 })).toMatchObject({ fixHelper: true, noSandbox: true });
    expect(electronSandboxPlan({ ...ubuntu2404, uid: 0, apparmorRestrictsUserns: null })).toMatchObject({
      fixHelper: false,
      noSandbox: true,
    });
  });

  it('no helper at all under the switch: --no-sandbox, nothing to fix', () => {
    const plan = electronSandboxPlan({ ...ubuntu2404, helperExists: false });
    expect(plan).toMatchObject({ fixHelper: false, noSandbox: true });
    expect(plan.why).toContain('there is no chrome-sandbox');
  });

  it('the console says why Electron runs without its sandbox', () => {
    const lines: string[] = [];
    const args = applyElectronSandboxPlan(electronSandboxPlan(ubuntu2404), ubuntu2404, { log: (l) => lines.push(l) });
    expect(args).toEqual(['--no-sandbox']);
    expect(lines.join('\n')).toMatch(/^Electron starts with --no-sandbox: AppArmor refuses .+ own files\.$/);
  });
});

describe.runIf(process.getuid?.() === 0)('as root, on a real helper file', () => {
  it("makes chrome-sandbox root's and setuid, and reads the facts back from it", () => {
    const dist = tempDir();
    const bin = path.join(dist, 'electron');
    const helper = path.join(dist, 'chrome-sandbox');
    fs.writeFileSync(bin, '');
    fs.writeFileSync(helper, '', { mode: 0o755 });
    fs.chownSync(helper, 65534, 65534); // as npm leaves it: the installing user's, no setuid bit
    const before = electronSandboxFacts(bin, 'linux');
    expect(before).toMatchObject({ helper, helperExists: true, helperSetuidRoot: false });
    const plan = electronSandboxPlan({ ...before, apparmorRestrictsUserns: '1' });
    expect(applyElectronSandboxPlan(plan, before, { log: () => {} })).toEqual(['--no-sandbox']);
    const st = fs.statSync(helper);
    expect([st.uid, st.gid, st.mode & 0o7777]).toEqual([0, 0, 0o4755]);
    expect(electronSandboxFacts(bin, 'linux').helperSetuidRoot).toBe(true);
  });
});
