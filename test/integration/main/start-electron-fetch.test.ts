// `npm start` (scripts/start.mjs) where the Electron binary is missing, as after the bootstrap's install: with a
// display it fetches the binary with Electron's own installer and starts it; without a display, with
// AGENT_STUDIO_HEADLESS=1, or when the fetch fails, it starts the headless server and says the true reason. Electron's
// installer runs for real (its download, its checksum check, its extraction) against a stand-in mirror on loopback,
// into a copy of the electron package, with its cache in a temp dir; the binary is a stand-in that records its start
// (run without the electron-vite build before it: AGENT_STUDIO_SKIP_ELECTRON_BUILD).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronSandboxFacts, electronSandboxPlan } from '../../../scripts/electron-binary.mjs';
import {
  ARCHIVE_NAME,
  MIRROR_DIR,
  standInArchive,
  standInElectronPackage,
  startStandInMirror,
  type StandInMirror,
} from '../../helpers/electron-mirror.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { tempDir } from '../../helpers/temp-dir.js';

const WRONG_SHA256 = '0'.repeat(64);
const CHECKSUM_MISMATCH = `Error: Generated checksum for "${ARCHIVE_NAME}" did not match expected checksum`;

let mirror: StandInMirror | undefined;
const workDirs: string[] = [];
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
  for (const dir of workDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

interface Setup {
  electronDir: string;
  cacheDir: string;
  marker: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

/** A copy of the electron package with `checksums`, and the environment `npm start` runs in with `mirrorUrl`. */
function setUp(checksums: Record<string, string>, mirrorUrl: string, env: NodeJS.ProcessEnv = {}): Setup {
  const work = tempDir('agent-studio-electron-fetch-');
  workDirs.push(work);
  const electronDir = standInElectronPackage(work, checksums);
  const cacheDir = path.join(work, 'electron-cache');
  const marker = path.join(work, 'electron-started.txt');
  const dataDir = path.join(work, 'data');
  // Only this test's Electron settings: none from the developer's environment or npm config (npm_config_electron_*
  // would win over ELECTRON_MIRROR), and none of the real cache (~/.cache/electron).
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_config_|npm_package_config_)?electron_/i.test(key)),
  );
  return {
    electronDir,
    cacheDir,
    marker,
    dataDir,
    env: {
      ...inherited,
      AGENT_STUDIO_HEADLESS: '',
      AGENT_STUDIO_ELECTRON_DIR: electronDir,
      ELECTRON_MIRROR: mirrorUrl,
      electron_config_cache: cacheDir,
      XDG_CACHE_HOME: path.join(work, 'xdg-cache'),
      STAND_IN_ELECTRON_MARKER: marker,
      // The electron-vite build would rewrite out/ under the suite's other files that load it.
      AGENT_STUDIO_SKIP_ELECTRON_BUILD: '1',
      DISPLAY: ':stand-in',
      WAYLAND_DISPLAY: '',
      ...env,
    },
  };
}

interface Started {
  /** The headless server's URL when it started (the run is then stopped), else null. */
  headlessUrl: string | null;
  exitCode: number | null;
  stderr: string;
}

/**
 * Runs `npm start`'s script until it exits or its headless server listens (then stops it with SIGTERM). `interrupt`:
 * sends it SIGTERM once that resolves.
 */
async function runStart(setup: Setup, interrupt?: Promise<void>): Promise<Started> {
  const child = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'scripts/start.mjs'), '--port', '0', '--data-dir', setup.dataDir],
    { cwd: REPO_ROOT, env: setup.env },
  );
  let out = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void interrupt?.then(() => child.kill('SIGTERM'));
  const headlessUrl = await new Promise<string | null>((resolve) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^listening (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then(() => resolve(null));
  });
  if (headlessUrl) child.kill('SIGTERM');
  return { headlessUrl, exitCode: await exited, stderr };
}

/** `text` as a pattern that matches exactly it (RegExp.escape is not in TypeScript's lib yet). */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The run started the headless server, after saying `reason` (its text, or a pattern of it). */
function fellBackSaying(started: Started, reason: string | RegExp): void {
  expect(started.headlessUrl, started.stderr).not.toBeNull();
  const said = /^Electron cannot run here: (.*)\. Starting the headless API server instead\.$/m.exec(started.stderr);
  if (typeof reason === 'string') expect(said?.[1], started.stderr).toBe(reason);
  else expect(said?.[1], started.stderr).toMatch(reason);
  expect(started.exitCode).toBe(0);
}

/** A loopback address where nothing listens: a port just released. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// The stand-in binary is a shell script, which Windows cannot run as electron.exe.
describe.skipIf(process.platform === 'win32')('npm start without the Electron binary', () => {
  it('with a display: fetches it from the mirror with Electron\'s installer (checksum checked), then starts it with "."', async () => {
    const archive = standInArchive();
    mirror = await startStandInMirror({ [ARCHIVE_NAME]: archive.zip });
    const setup = setUp({ [ARCHIVE_NAME]: archive.sha256 }, mirror.url);

    const started = await runStart(setup);

    expect(started.headlessUrl, started.stderr).toBeNull();
    expect(started.exitCode, started.stderr).toBe(0);
    expect(started.stderr).toContain("Electron's binary is not here yet: fetching it with Electron's installer");
    expect(mirror.requests).toEqual([`${MIRROR_DIR}${ARCHIVE_NAME}`]);
    // The stand-in ran in the repository with the app's folder and start's own arguments.
    const [cwd, ...argv] = fs.readFileSync(setup.marker, 'utf8').trimEnd().split('\n');
    expect(fs.realpathSync(cwd)).toBe(fs.realpathSync(REPO_ROOT));
    // Where the installer put it (path.txt, dist/), and its cache in the temp dir, not the developer's.
    const rel = fs.readFileSync(path.join(setup.electronDir, 'path.txt'), 'utf8');
    expect(rel).toMatch(/electron|Electron$/);
    // --no-sandbox first where this machine's sandbox plan says so (as root: always; unit-tested in
    // test/unit/scripts/electron-sandbox.test.ts), and the console says why.
    const plan = electronSandboxPlan(electronSandboxFacts(path.join(setup.electronDir, 'dist', rel.trim())));
    expect(argv).toEqual([
      ...(plan.noSandbox ? ['--no-sandbox'] : []),
      '.',
      '--port',
      '0',
      '--data-dir',
      setup.dataDir,
    ]);
    if (plan.noSandbox) expect(started.stderr).toContain(`Electron starts with --no-sandbox: ${plan.why}`);
    expect(fs.readdirSync(setup.cacheDir, { recursive: true })).toContainEqual(expect.stringContaining(ARCHIVE_NAME));

    // The next start finds the binary: no second fetch.
    fs.rmSync(setup.marker);
    const again = await runStart(setup);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('fetching it');
    expect(mirror.requests).toHaveLength(1);
    expect(fs.existsSync(setup.marker)).toBe(true);
  });

  it("an archive that does not match the package's checksums.json: headless, with the installer's error", async () => {
    const archive = standInArchive();
    mirror = await startStandInMirror({ [ARCHIVE_NAME]: archive.zip });
    const setup = setUp({ [ARCHIVE_NAME]: WRONG_SHA256 }, mirror.url);

    const started = await runStart(setup);

    fellBackSaying(started, `Electron's installer failed (exit code 1): ${CHECKSUM_MISMATCH}`);
    expect(mirror.requests).toEqual([`${MIRROR_DIR}${ARCHIVE_NAME}`]);
    expect(fs.existsSync(setup.marker)).toBe(false);
    expect(fs.existsSync(path.join(setup.electronDir, 'path.txt'))).toBe(false);
  });

  it("an archive that does not match the mirror's SHASUMS256.txt (electron_use_remote_checksums): headless, with the installer's error", async () => {
    const archive = standInArchive();
    mirror = await startStandInMirror({
      [ARCHIVE_NAME]: archive.zip,
      'SHASUMS256.txt': `${WRONG_SHA256} *${ARCHIVE_NAME}\n`,
    });
    const setup = setUp({ [ARCHIVE_NAME]: archive.sha256 }, mirror.url, { electron_use_remote_checksums: '1' });

    const started = await runStart(setup);

    fellBackSaying(started, `Electron's installer failed (exit code 1): ${CHECKSUM_MISMATCH}`);
    expect(mirror.requests).toEqual([`${MIRROR_DIR}${ARCHIVE_NAME}`, `${MIRROR_DIR}SHASUMS256.txt`]);
    expect(fs.existsSync(setup.marker)).toBe(false);
  });

  it('a mirror that cannot be reached: headless, naming the address and the network error', async () => {
    const mirrorUrl = `http://127.0.0.1:${await closedPort()}/`;
    const setup = setUp({ [ARCHIVE_NAME]: standInArchive().sha256 }, mirrorUrl);

    const started = await runStart(setup);

    const address = `${mirrorUrl}${MIRROR_DIR.slice(1)}${ARCHIVE_NAME}`;
    fellBackSaying(
      started,
      new RegExp(
        `^Electron's installer failed \\(exit code 1\\): Error: fetch failed \\(${escapeRegExp(address)}\\): .*ECONNREFUSED`,
      ),
    );
  });

  it('a mirror that never answers: the installer is stopped at the time bound, then headless', async () => {
    const archive = standInArchive();
    mirror = await startStandInMirror({ [ARCHIVE_NAME]: archive.zip }, ARCHIVE_NAME);
    const setup = setUp({ [ARCHIVE_NAME]: archive.sha256 }, mirror.url, {
      AGENT_STUDIO_ELECTRON_FETCH_TIMEOUT_MS: '1000',
    });

    const started = await runStart(setup);

    fellBackSaying(started, "Electron's installer did not finish within 1 s (stopped)");
    // The installer was killed: its connection to the mirror closed with the request still unanswered.
    await mirror.hungRequestClosed;
    expect(fs.existsSync(setup.marker)).toBe(false);
  });

  it('SIGTERM while fetching: the installer is stopped and nothing starts, headless server included', async () => {
    const archive = standInArchive();
    mirror = await startStandInMirror({ [ARCHIVE_NAME]: archive.zip }, ARCHIVE_NAME);
    const setup = setUp({ [ARCHIVE_NAME]: archive.sha256 }, mirror.url);

    const started = await runStart(setup, mirror.hungRequestArrived);

    expect(started.headlessUrl, started.stderr).toBeNull();
    expect(started.exitCode, started.stderr).toBe(0);
    expect(started.stderr).not.toContain('Electron cannot run here');
    await mirror.hungRequestClosed;
    expect(fs.existsSync(setup.marker)).toBe(false);
  });

  // macOS always has a display.
  it.skipIf(process.platform === 'darwin')(
    'without a display: nothing is fetched, headless, saying there is no display',
    async () => {
      mirror = await startStandInMirror({});
      const setup = setUp({}, mirror.url, { DISPLAY: '', WAYLAND_DISPLAY: '' });

      const started = await runStart(setup);

      fellBackSaying(started, 'there is no display (DISPLAY/WAYLAND_DISPLAY unset)');
      expect(mirror.requests).toEqual([]);
    },
  );

  it('with AGENT_STUDIO_HEADLESS=1: nothing is fetched, headless, saying so', async () => {
    mirror = await startStandInMirror({});
    const setup = setUp({}, mirror.url, { AGENT_STUDIO_HEADLESS: '1' });

    const started = await runStart(setup);

    fellBackSaying(started, 'AGENT_STUDIO_HEADLESS=1');
    expect(mirror.requests).toEqual([]);
  });
});
