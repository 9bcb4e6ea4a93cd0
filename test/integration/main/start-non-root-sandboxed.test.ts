// `npm start` as a person would run it on their own machine: a non-root user (made here, removed after) with a
// checkout of their own (`git archive HEAD`, node_modules and .node linked from this one), no display, so the
// headless server starts; one login over HTTP to a fixture site; and the login's Chromium ran with its sandbox on
// (no --no-sandbox on its command line, read from /proc). The tests run as root, where the sandbox is off by
// necessity: this is where the product's own start path is seen with it on.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBrowserExecutable } from '../../../src/main/core/login/browser/browser-resolver.js';
import { decideSandbox, sandboxFacts } from '../../../src/main/core/login/browser/chromium-sandbox.js';
import { findOnPath } from '../../../src/main/electron/system-tools.js';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { requireSystemPart } from '../../helpers/requires.js';
import { tempDir } from '../../helpers/temp-dir.js';

const USER = 'agentstudio-npmstart';
const SBIN_PATH = `${process.env.PATH}:/usr/sbin:/sbin`;

/** Why this cannot run here, or null. Not root is the one plain skip; a missing part fails under CI. */
function skipReason(): string | null {
  if (process.platform !== 'linux') return 'a Linux test (users, /proc)';
  if (process.getuid?.() !== 0) return 'not root: no throwaway user can be made';
  const parts: [string, boolean][] = [
    ['useradd and userdel', !!findOnPath('useradd', { PATH: SBIN_PATH }, 'linux')],
    ['npm', !!findOnPath('npm', process.env, 'linux')],
    ['git', !!findOnPath('git', process.env, 'linux')],
  ];
  for (const [name, there] of parts) {
    if (!requireSystemPart(name, there, 'the non-root npm start test makes a user and a checkout')) {
      return `${name} is missing`;
    }
  }
  const asUser = decideSandbox({ ...sandboxFacts(resolveBrowserExecutable({}).path), uid: 65534 });
  const usable = requireSystemPart('a sandbox a non-root user can run', asUser.sandbox, asUser.why);
  return usable ? null : `a non-root user gets no sandbox here: ${asUser.why}`;
}
const skip = skipReason();

function cmdlines(uid: number): { pid: number; cmdline: string[] }[] {
  const found: { pid: number; cmdline: string[] }[] = [];
  for (const dir of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.statSync(`/proc/${dir}`).uid !== uid) continue;
      const cmdline = fs.readFileSync(`/proc/${dir}/cmdline`, 'utf8').split('\0').filter(Boolean);
      found.push({ pid: Number(dir), cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

// Skipped only off Linux or when this process is not root (it must make a user): the reason is in the suite's title; a part
// missing under CI (useradd, npm, git, a usable sandbox) fails instead (skipReason).
describe.skipIf(skip !== null)(`npm start as a non-root user${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let site: FixtureSite;
  let uid = -1;
  let gid = -1;
  let home: string;

  beforeAll(async () => {
    site = await startSite('classic-csrf');
    home = tempDir('agent-studio-npm-start-');
    fs.chmodSync(home, 0o755);
    spawnSync('userdel', [USER], { env: { ...process.env, PATH: SBIN_PATH } }); // a leftover of a killed run
    execFileSync('useradd', ['--user-group', '--no-create-home', '--home-dir', home, '--shell', '/bin/sh', USER], {
      env: { ...process.env, PATH: SBIN_PATH },
    });
    const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
    [uid, gid] = [id('-u'), id('-g')];
  });

  afterAll(async () => {
    await site?.close();
    // What is left of the user's processes; one may end between the listing and its kill (ESRCH: gone already).
    for (const p of uid > 0 ? cmdlines(uid) : []) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
    }
    spawnSync('userdel', [USER], { env: { ...process.env, PATH: SBIN_PATH } });
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('starts the headless server and logs in with the login browser sandboxed', async () => {
    // The user's checkout: HEAD's files, theirs; node_modules (and the provisioned Node) shared read-only.
    const checkout = path.join(home, 'agent-studio');
    fs.mkdirSync(checkout);
    execFileSync('sh', ['-c', `git -C '${REPO_ROOT}' archive HEAD | tar -x -C '${checkout}'`]);
    fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, 'node_modules')), path.join(checkout, 'node_modules'));
    if (fs.existsSync(path.join(REPO_ROOT, '.node'))) {
      fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, '.node')), path.join(checkout, '.node'));
    }
    execFileSync('chown', ['-R', '-h', `${uid}:${gid}`, home]);
    const env = {
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
      HOME: home,
      TMPDIR: home,
      LANG: 'C.UTF-8',
      USER,
    };
    // The bootstrap must find nothing to do: the copy's lockfile matches the shared node_modules' stamp (never
    // `npm ci` into node_modules that other checkouts use).
    const lock = fs.readFileSync(path.join(checkout, 'package-lock.json'));
    const stamp = fs.readFileSync(path.join(checkout, 'node_modules', '.agent-studio-lock.sha256'), 'utf8').trim();
    const want = crypto
      .createHash('sha256')
      .update(lock)
      .update(`${process.versions.modules}-${process.platform}-${process.arch}`)
      .digest('hex');
    expect(stamp, 'node_modules was installed for another lockfile or Node').toBe(want);
    const check = spawnSync(process.execPath, ['scripts/bootstrap.mjs', '--runtime', '--check'], {
      cwd: checkout,
      uid,
      gid,
      env,
      encoding: 'utf8',
    });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);

    const dataDir = path.join(home, 'data');
    const child = spawn('npm', ['start', '--', '--port', '0', '--data-dir', dataDir], {
      cwd: checkout,
      uid,
      gid,
      env, // no DISPLAY, no WAYLAND_DISPLAY, no session bus: the headless server, its key in a file
      detached: true,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const m = /^listening (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
          if (m) resolve(m[1]);
        });
        void exited.then((code) => reject(new Error(`npm start exited (${code}) before listening: ${err}`)));
      });
      expect(err).toMatch(/Electron cannot run here: .+\. Starting the headless API server instead\./);
      const key = /pk_[0-9A-Za-z]{40}/.exec(fs.readFileSync(path.join(dataDir, 'first-run-key.txt'), 'utf8'))![0];

      const res = await fetch(`${url}/api/login`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          cred: { username: site.credentials.username, password: site.credentials.password },
          loginMethod: 'password',
          domain: site.loginUrl,
        }),
      });
      expect(res.status, `${await res.clone().text()}\n${err}`).toBe(200);
      expect(site.stats().successfulLogins).toBe(1);

      // The login's browser, still up in the server: the user's, and started without --no-sandbox.
      const browsers = cmdlines(uid).filter((p) => p.cmdline.includes('--remote-debugging-pipe'));
      expect(browsers.length, JSON.stringify(cmdlines(uid).map((p) => p.cmdline.slice(0, 2)))).toBeGreaterThan(0);
      for (const b of browsers) expect(b.cmdline).not.toContain('--no-sandbox');
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }, 240_000);
});
