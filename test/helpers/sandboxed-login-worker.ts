/**
 * One login through a BrowserPool with its default launch args, as whatever user runs it (the sandboxed-login
 * integration test starts it as a throwaway non-root user):
 * `node --import tsx sandboxed-login-worker.ts LOGIN_URL USERNAME PASSWORD`.
 * Prints `{"phase":"signed-in",...}` while the browser still runs (the test then looks at its processes), and on a
 * `close` line on stdin disposes the pool and exits. No launch args are given: what the pool decides is under test.
 */
import readline from 'node:readline';
import { BrowserPool } from '../../src/main/core/login/browser/browser-pool.js';
import { resolveBrowserExecutable } from '../../src/main/core/login/browser/browser-resolver.js';
import { LoginEngine } from '../../src/main/core/login/flow/login-engine.js';

const [url, username, password] = process.argv.slice(2) as [string, string, string];
const logged: { obj: unknown; msg?: string }[] = [];
const keep = (obj: unknown, msg?: string) => void logged.push({ obj, msg });
const pool = new BrowserPool({
  executablePath: resolveBrowserExecutable({}).path,
  maxContexts: 1,
  log: { debug: () => {}, info: keep, warn: keep, error: keep },
});
const engine = new LoginEngine({});
const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
try {
  await pool.withContext(async (ctx) => {
    const result = await engine.login(ctx, { url, username, password, timeoutMs: 45_000 });
    const sandbox = logged.find((l) => l.msg === 'browser sandbox')?.obj;
    const report = result.ok
      ? { phase: 'signed-in', ok: true, cookies: result.storageState.cookies.map((c) => c.name), sandbox }
      : { phase: 'signed-in', ok: false, reason: result.reason, message: result.message, sandbox };
    process.stdout.write(`${JSON.stringify(report)}\n`);
    // The browser stays up (this context open) until the test has looked at its processes.
    for (let r = await lines.next(); !r.done; r = await lines.next()) if (r.value.trim() === 'close') break;
  });
} finally {
  await pool.dispose();
}
process.exit(0);
