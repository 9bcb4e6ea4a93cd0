// Headless entry: the local API server without Electron. `npm run -s serve -- [--port P] [--data-dir DIR] [--host H]`
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './core/config/load-config.js';
import { createCore, ensureFirstRun, STARTER_CREDITS, writeFirstRunKeyFile } from './core/create-core.js';
import { startServer } from './core/run-server.js';
import { missingSecretsNotice } from './core/secrets/secret-inventory.js';
import { shutdownSignals } from './core/shutdown-signals.js';

const USAGE = 'usage: npm run -s serve -- [--port P] [--data-dir DIR] [--host 127.0.0.1]';

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const port = args.port === undefined ? undefined : Number(args.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    process.stderr.write(`--port must be a whole number from 0 to 65535\n${USAGE}\n`);
    return 2;
  }
  let config;
  try {
    config = loadConfig({ port, host: args.host, dataDir: args['data-dir'] });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const core = createCore(config);
  // Choose the secrets backend now, so its notice comes before the first-run key and a refusal is seen at once.
  const secretsProblem = await core.secrets.check().then(
    () => null,
    (err: Error) => err.message,
  );
  for (const notice of core.takeNotices()) process.stderr.write(`note: ${notice}\n`);
  if (secretsProblem && core.orgs.list().length > 0) process.stderr.write(`warning: ${secretsProblem}\n`);
  const missing = secretsProblem ? null : await missingSecretsNotice(core.secretsInventory);
  if (missing) process.stderr.write(`warning: ${missing}\n`);
  const first = await ensureFirstRun(core);
  if (first.key) {
    const where = first.secretStoreError
      ? 'it could NOT be saved to a secret store'
      : core.secrets.backend === 'keychain'
        ? 'also saved in the OS keychain'
        : 'also saved, encrypted, in the data dir';
    const created = `Created organization "default" with ${STARTER_CREDITS} starter credits and a full-scope API key`;
    // On a terminal the person sees the key once. Anything else (a service manager, a log collector, a
    // CI step) would keep it in its captured output: there it goes into a file only its owner can read.
    if (process.stdout.isTTY) process.stdout.write(`${created} (shown once; ${where}):\n  ${first.key}\n`);
    else {
      const file = writeFirstRunKeyFile(config.dataDir, first.key);
      process.stdout.write(
        `${created} (${where}). Its key is in ${file} (mode 600, written once): copy it, then delete the file.\n`,
      );
    }
    if (first.secretStoreError) process.stderr.write(`warning: ${first.secretStoreError}\n`);
  }
  let server;
  try {
    server = await startServer(core);
  } catch (err) {
    await core.dispose();
    const e = err as NodeJS.ErrnoException;
    process.stderr.write(
      e.code === 'EADDRINUSE'
        ? `Port ${config.server.port} is already in use; pass --port or set AGENT_STUDIO_PORT.\n`
        : `${e.message}\n`,
    );
    return 1;
  }
  const running = server;
  // Handlers go in before the server announces itself: a caller may signal as soon as it reads the line.
  const stopped = new Promise<void>((resolve) => {
    let stoppingSince = 0;
    const stop = (signal: string) => {
      // Ctrl-C reaches the whole process group (on Windows: every process of the console), and on POSIX
      // `npm start`'s launchers relay it as well: the same press may arrive more than once within milliseconds.
      // Only a later, second press forces the exit.
      if (stoppingSince) {
        if (Date.now() - stoppingSince < 1000) return;
        process.stderr.write('forced exit\n');
        process.exit(1);
      }
      stoppingSince = Date.now();
      process.stderr.write('shutting down (press Ctrl-C again to force)\n');
      core.log.info({ signal }, 'shutting down');
      running.close().then(resolve, (err) => {
        process.stderr.write(`shutdown error: ${(err as Error).message}\n`);
        resolve();
      });
    };
    for (const signal of shutdownSignals(process.platform)) process.on(signal, () => stop(signal));
  });
  core.log.info({ url: server.url, dataDir: config.dataDir }, 'headless server listening');
  process.stdout.write(`listening ${server.url}\n`);
  await stopped;
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`fatal: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
