// A real login with Chromium's sandbox on: the BrowserPool decides the sandbox by what the process can do
// (login/browser/chromium-sandbox.ts), never by an environment variable such as CI. The tests run as root here, where the
// sandbox is off by necessity; so this one runs the login as a throwaway non-root user (test/helpers/
// sandboxed-login-worker.ts), checks the login signed in, and checks the browser it launched: no --no-sandbox, and
// the zygote of its renderers in a user namespace of its own (what the Linux sandbox does without a setuid helper).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBrowserExecutable } from '../../../../src/main/core/login/browser/browser-resolver.js';
import { decideSandbox, sandboxFacts } from '../../../../src/main/core/login/browser/chromium-sandbox.js';
import { findOnPath } from '../../../../src/main/electron/system-tools.js';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { REPO_ROOT } from '../../../helpers/repo-root.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const USER = 'agentstudio-sandbox';
const WORKER = path.join(REPO_ROOT, 'test/helpers/sandboxed-login-worker.ts');

/** Why a sandboxed login as another user cannot be tried here, or null. */
function skipReason(): string | null {
  if (process.platform !== 'linux') return 'the non-root sandboxed login is a Linux test';
  if (process.getuid?.() !== 0) return 'not root: no throwaway user can be made (a non-root run is sandboxed anyway)';
  if (!findOnPath('useradd', { PATH: `${process.env.PATH}:/usr/sbin:/sbin` }, 'linux')) return 'useradd is missing';
  // What a non-root user of this machine would get: user namespaces (or a setuid helper) must be usable.
  const asUser = decideSandbox({ ...sandboxFacts(resolveBrowserExecutable({}).path), uid: 65534 });
  return asUser.sandbox ? null : `a non-root user gets no sandbox here: ${asUser.why}`;
}
const skip = skipReason();
if (skip) console.warn(`test/integration/login/browser/sandboxed-login.test.ts skipped: ${skip}`);

/** The throwaway user's uid and gid, made once (a system user without login shell or password). */
function throwawayUser(): { uid: number; gid: number } {
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', USER], {
      env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/sbin` },
    });
    return { uid: id('-u'), gid: id('-g') };
  }
}

interface Proc {
  pid: number;
  ppid: number;
  uid: number;
  cmdline: string[];
  userNs: string | null;
}

function readProc(pid: number): Proc | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1];
    let userNs: string | null = null;
    try {
      userNs = fs.readlinkSync(`/proc/${pid}/ns/user`);
    } catch {
      // gone meanwhile
    }
    return {
      pid,
      ppid: Number(field('PPid')),
      uid: Number(field('Uid')),
      // Zygote-forked children retitle themselves (one string, spaces): split on both.
      cmdline: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean),
      userNs,
    };
  } catch {
    return null;
  }
}

/** Every process under `root` (not root itself). */
function descendants(root: number): Proc[] {
  const all = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => p !== null);
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const p of all) if (p.ppid === tree[i]) tree.push(p.pid);
  return all.filter((p) => p.pid !== root && tree.includes(p.pid));
}

interface WorkerReport {
  phase: string;
  ok: boolean;
  cookies?: string[];
  reason?: string;
  message?: string;
  sandbox?: { sandbox: boolean; why: string };
}

describe.skipIf(skip !== null)(`a sandboxed login as a non-root user${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startSite('classic-csrf');
  });
  afterAll(async () => {
    await site?.close();
  });

  it('signs in with the sandbox on: no --no-sandbox, the renderers’ zygote in a user namespace of its own', async () => {
    const { uid, gid } = throwawayUser();
    const home = tempDir('agent-studio-sandbox-home-');
    fs.chownSync(home, uid, gid);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', WORKER, site.loginUrl, site.credentials.username, site.credentials.password],
      {
        cwd: REPO_ROOT,
        uid,
        gid,
        // Root's session bus and keyring are not the user's; its own home and temp dir (tsx caches there).
        env: { PATH: process.env.PATH, HOME: home, TMPDIR: home, LANG: 'C.UTF-8' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      let report: WorkerReport | undefined;
      while (!report) {
        const r = await lines.next();
        if (r.done) break;
        if (r.value.startsWith('{')) report = JSON.parse(r.value) as WorkerReport;
      }
      if (!report) throw new Error(`the worker ended without a report (exit ${await exited}): ${stderr}`);

      expect(report.sandbox, stderr).toMatchObject({ sandbox: true });
      expect(report.ok, `${report.reason}: ${report.message}\n${stderr}`).toBe(true);
      expect(site.stats().successfulLogins).toBe(1);

      // The browser is still up: look at it from here (root may read every process's namespaces).
      const procs = descendants(child.pid!);
      const browser = procs.find((p) => p.cmdline.includes('--remote-debugging-pipe'));
      expect(browser, JSON.stringify(procs.map((p) => p.cmdline.slice(0, 2)))).toBeDefined();
      expect(browser!.cmdline).not.toContain('--no-sandbox');
      expect(procs.every((p) => p.uid === uid)).toBe(true);
      // The login's page is closed by now; the zygote that forks renderers is there, in a user namespace of its own.
      const seen = procs.map(
        (p) => `${p.pid} ${p.userNs} ${p.cmdline.filter((a) => a.startsWith('--type')).join(' ')}`,
      );
      const sandboxedZygotes = procs.filter(
        (p) => p.cmdline.includes('--type=zygote') && p.userNs !== null && p.userNs !== browser!.userNs,
      );
      expect(sandboxedZygotes.length, seen.join('\n')).toBeGreaterThan(0);
      expect(os.userInfo().uid).toBe(0); // the test itself stayed root: only the child changed user
    } finally {
      child.stdin.write('close\n');
      const code = await exited;
      fs.rmSync(home, { recursive: true, force: true });
      expect(code, stderr).toBe(0);
    }
  });
});
