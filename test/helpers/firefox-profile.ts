// A real Firefox profile for the browser-profile import tests: Debian's own `firefox-esr` (not a Playwright build)
// under a temp HOME, created with `-CreateProfile` (so profiles.ini is Firefox's own), driven over WebDriver BiDi
// (the protocol stock Firefox speaks on --remote-debugging-port; Playwright drives only its patched Firefox) to sign
// in to a fixture site through its real login form, then closed gracefully so it writes cookies.sqlite and the
// site's localStorage to disk.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FixtureSite } from '../fixtures/sites/index.js';

/** Debian's firefox-esr, or a `firefox` on the path; null when neither is installed. */
export const SYSTEM_FIREFOX = ['/usr/bin/firefox-esr', '/usr/bin/firefox'].find((f) => fs.existsSync(f)) ?? null;

export const FIREFOX_PROFILE_NAME = 'agent-studio-test';

/** The long localStorage item's value (Firefox compresses it with Snappy). */
export const FIREFOX_LONG_VALUE = 'session token ✓ '.repeat(200);

/** Where Firefox ≥ 147 keeps profiles.ini on Linux when ~/.mozilla does not exist yet (XDG). */
export function firefoxProfilesDir(home: string): string {
  return path.join(home, '.config', 'mozilla', 'firefox');
}

function firefoxEnv(home: string): NodeJS.ProcessEnv {
  // Its own HOME and XDG dirs: the profile, profiles.ini and caches all land in the temp home.
  return {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    MOZ_HEADLESS: '1',
    MOZ_CRASHREPORTER_DISABLE: '1',
  };
}

/** `firefox -CreateProfile NAME`: Firefox writes profiles.ini and picks the profile's directory itself. */
export function createFirefoxProfile(home: string, name = FIREFOX_PROFILE_NAME): string {
  const run = spawnSync(SYSTEM_FIREFOX!, ['--headless', '-CreateProfile', name], {
    env: firefoxEnv(home),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`firefox -CreateProfile failed (${run.status}): ${run.stderr}`);
  const ini = fs.readFileSync(path.join(firefoxProfilesDir(home), 'profiles.ini'), 'utf8');
  const rel = /^Path=(.*)$/m.exec(ini)?.[1]?.trim();
  if (!rel) throw new Error(`no profile in profiles.ini:\n${ini}`);
  return path.isAbsolute(rel) ? rel : path.join(firefoxProfilesDir(home), rel);
}

/** A minimal WebDriver BiDi client over Node's WebSocket: commands in, results (or errors) out. */
class Bidi {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener('message', (ev) => {
      const msg = JSON.parse(String(ev.data)) as { id?: number; result?: unknown; error?: string; message?: string };
      const waiter = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!waiter) return; // an event
      this.pending.delete(msg.id!);
      if (msg.error) waiter.reject(new Error(`BiDi ${msg.error}: ${msg.message}`));
      else waiter.resolve(msg.result);
    });
    ws.addEventListener('close', () => {
      for (const w of this.pending.values()) w.reject(new Error('BiDi connection closed'));
      this.pending.clear();
    });
  }

  static async connect(url: string): Promise<Bidi> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve(), { once: true });
      ws.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)), { once: true });
    });
    return new Bidi(ws);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.next++;
    const result = new Promise<T>((resolve, reject) =>
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject }),
    );
    this.ws.send(JSON.stringify({ id, method, params }));
    return result;
  }

  close(): void {
    this.ws.close();
  }
}

export interface FirefoxSession {
  /** Navigates the first tab and waits for the page to load. */
  goto(url: string): Promise<void>;
  /** Evaluates `expression` (awaiting a promise) in the page; the result's primitive value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Quits Firefox over BiDi (a normal shutdown: the cookie and storage databases are flushed) and waits for it. */
  close(): Promise<void>;
}

function bidiUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d.toString();
      const m = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(seen);
      if (m) {
        child.stderr!.off('data', onData);
        child.stderr!.resume(); // keep draining: a full pipe would stall Firefox
        resolve(m[1]);
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`firefox exited (${code}) before BiDi listened:\n${seen}`)));
  });
}

/** Starts firefox-esr headless on the profile with WebDriver BiDi on a free port of 127.0.0.1. */
export async function openFirefoxProfile(home: string, profileDir: string): Promise<FirefoxSession> {
  const child = spawn(
    SYSTEM_FIREFOX!,
    ['--headless', '--no-remote', '--profile', profileDir, '--remote-debugging-port', '0', 'about:blank'],
    { env: firefoxEnv(home), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let bidi: Bidi;
  try {
    const url = await bidiUrl(child);
    bidi = await Bidi.connect(`${url.replace(/\/$/, '')}/session`);
    await bidi.send('session.new', { capabilities: {} });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const tree = await bidi.send<{ contexts: { context: string }[] }>('browsingContext.getTree');
  const context = tree.contexts[0].context;
  return {
    goto: async (url) => {
      await bidi.send('browsingContext.navigate', { context, url, wait: 'complete' });
    },
    evaluate: async <T>(expression: string) => {
      const res = await bidi.send<{ type: string; result?: { value?: unknown }; exceptionDetails?: { text: string } }>(
        'script.evaluate',
        { expression, target: { context }, awaitPromise: true },
      );
      if (res.type === 'exception') throw new Error(`script failed: ${res.exceptionDetails?.text}`);
      return res.result?.value as T;
    },
    close: async () => {
      await bidi.send('browser.close').catch(() => undefined); // the connection may drop as Firefox quits
      bidi.close();
      // Never leave a Firefox behind: one that has not quit a while after being asked is killed (the profile is then
      // incomplete and the test says so by failing).
      const stuck = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(stuck);
    },
  };
}

/** Polls `check` in the page until it is true (Firefox's own navigation after a form submit has no BiDi wait). */
async function waitInPage(ff: FirefoxSession, check: string, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await ff.evaluate<boolean>(check).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Firefox never got to: ${what}`);
}

/**
 * Signs in to the extra-fields fixture site through its real form with "Remember me" (a persistent cookie: Firefox
 * keeps only those in cookies.sqlite) and keeps two localStorage items on its origin (a short one and a long one).
 */
export async function logInExtraFieldsWithFirefox(ff: FirefoxSession, site: FixtureSite): Promise<void> {
  await ff.goto(site.loginUrl);
  const fill = (selector: string, value: string) =>
    `document.querySelector(${JSON.stringify(selector)}).value = ${JSON.stringify(value)}`;
  await ff.evaluate(
    [
      fill('#tenant', site.credentials.additionalFields?.tenant ?? 'acme'),
      fill('input[name=email]', site.credentials.username),
      fill('input[name=password]', site.credentials.password),
      "document.querySelector('#remember_me').checked = true",
      "document.querySelector('button[type=submit]').click()",
    ].join(';'),
  );
  const loggedIn = JSON.stringify(site.loggedInText);
  await waitInPage(
    ff,
    `!location.pathname.startsWith('/login') && document.readyState === 'complete' && document.body.innerText.includes(${loggedIn})`,
    site.loggedInText,
  );
  await ff.evaluate("localStorage.setItem('agent-studio-test', 'kept ✓')");
  // Long and repetitive: Firefox stores it Snappy-compressed (compression_type 1).
  await ff.evaluate(`localStorage.setItem('agent-studio-long', ${JSON.stringify(FIREFOX_LONG_VALUE)})`);
}

/** A closed Firefox profile, listed in profiles.ini under `home`, signed in to `site`: its directory. */
export async function makeLoggedInFirefoxProfile(home: string, site: FixtureSite): Promise<string> {
  const profileDir = createFirefoxProfile(home);
  const ff = await openFirefoxProfile(home, profileDir);
  try {
    await logInExtraFieldsWithFirefox(ff, site);
  } finally {
    await ff.close();
  }
  return profileDir;
}
