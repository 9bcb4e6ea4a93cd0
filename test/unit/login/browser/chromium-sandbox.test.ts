import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decideSandbox,
  sandboxFacts,
  type SandboxFacts,
} from '../../../../src/main/core/login/browser/chromium-sandbox.js';
import { tempDir } from '../../../helpers/temp-dir.js';

/** A non-root Linux user on a kernel with user namespaces (Debian 12's defaults), no setuid helper. */
const desktop: SandboxFacts = {
  platform: 'linux',
  uid: 1000,
  unprivilegedUsernsClone: null,
  maxUserNamespaces: '63000',
  apparmorRestrictsUserns: null,
  setuidHelper: false,
};

describe('decideSandbox: the sandbox by what the process can do', () => {
  it('a non-root Linux user with user namespaces keeps the sandbox', () => {
    expect(decideSandbox(desktop).sandbox).toBe(true);
    expect(decideSandbox({ ...desktop, unprivilegedUsernsClone: '1' }).sandbox).toBe(true);
  });

  it('root never gets it (Chromium refuses it), on any platform and whatever the kernel offers', () => {
    expect(decideSandbox({ ...desktop, uid: 0 })).toMatchObject({ sandbox: false, why: expect.stringMatching(/root/) });
    expect(decideSandbox({ ...desktop, uid: 0, setuidHelper: true }).sandbox).toBe(false);
    expect(decideSandbox({ ...desktop, platform: 'darwin', uid: 0 }).sandbox).toBe(false);
  });

  it('no usable user namespaces and no setuid helper: no sandbox', () => {
    expect(decideSandbox({ ...desktop, unprivilegedUsernsClone: '0' })).toMatchObject({
      sandbox: false,
      why: expect.stringMatching(/unprivileged_userns_clone/),
    });
    expect(decideSandbox({ ...desktop, maxUserNamespaces: '0' })).toMatchObject({
      sandbox: false,
      why: expect.stringMatching(/max_user_namespaces/),
    });
    expect(decideSandbox({ ...desktop, apparmorRestrictsUserns: '1' }).sandbox).toBe(false);
  });

  it('a setuid chrome-sandbox helper makes up for missing user namespaces', () => {
    expect(decideSandbox({ ...desktop, unprivilegedUsernsClone: '0', setuidHelper: true }).sandbox).toBe(true);
    expect(decideSandbox({ ...desktop, maxUserNamespaces: '0', setuidHelper: true }).sandbox).toBe(true);
  });

  it('macOS and Windows users keep it (nothing to set up)', () => {
    expect(decideSandbox({ ...desktop, platform: 'darwin', uid: 501 }).sandbox).toBe(true);
    expect(decideSandbox({ ...desktop, platform: 'win32', uid: undefined }).sandbox).toBe(true);
  });

  it('an environment variable such as CI changes nothing', () => {
    const before = process.env.CI;
    try {
      process.env.CI = 'true';
      const withCi = sandboxFacts('/nonexistent/chromium');
      delete process.env.CI;
      expect(sandboxFacts('/nonexistent/chromium')).toEqual(withCi);
    } finally {
      if (before === undefined) delete process.env.CI;
      else process.env.CI = before;
    }
  });
});

describe('sandboxFacts reads the machine', () => {
  it('finds a setuid root chrome-sandbox next to the real binary (through a symlinked launcher)', () => {
    const dir = tempDir();
    const bin = path.join(dir, 'chromium');
    fs.writeFileSync(bin, '');
    const link = path.join(tempDir(), 'chromium-link');
    fs.symlinkSync(bin, link);
    expect(sandboxFacts(link).setuidHelper).toBe(false);
    const helper = path.join(dir, 'chrome-sandbox');
    fs.writeFileSync(helper, '');
    fs.chmodSync(helper, 0o755);
    expect(sandboxFacts(link).setuidHelper).toBe(false); // present but not setuid: useless to Chromium
    fs.chmodSync(helper, 0o4755);
    // Owned by root only when the test runs as root (a non-root user cannot make a root-owned file).
    expect(sandboxFacts(link).setuidHelper).toBe(process.platform === 'linux' && process.getuid?.() === 0);
  });

  it('reports this process as it is', () => {
    const facts = sandboxFacts();
    expect(facts.platform).toBe(process.platform);
    expect(facts.uid).toBe(process.getuid?.());
    if (process.platform === 'linux') {
      expect(facts.maxUserNamespaces).toBe(fs.readFileSync('/proc/sys/user/max_user_namespaces', 'utf8').trim());
    }
  });
});
