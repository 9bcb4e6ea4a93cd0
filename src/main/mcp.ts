// MCP over stdio, for agent hosts that launch their tools:
// `npm run -s mcp -- [--data-dir DIR] [--key-env NAME] [--files-dir DIR]`.
// stdout carries MCP messages only; notices go to stderr and everything else to the log file of the data dir.
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigError, loadConfig } from './core/config/load-config.js';
import { createCore } from './core/create-core.js';
import { DEFAULT_MCP_FILES_DIR, McpFileAccess } from './core/mcp/mcp-files.js';
import { answerMalformedRequests } from './core/mcp/mcp-request-guard.js';
import { LinkHost, linkLifetimeNote, SHORT_LIVED_LINKS } from './core/mcp/mcp-link-host.js';
import { createMcpServer } from './core/mcp/mcp-server.js';
import { startServer } from './core/run-server.js';
import { shutdownSignals } from './core/shutdown-signals.js';

const USAGE =
  'usage: AGENT_STUDIO_API_KEY=... npm run -s mcp -- [--data-dir DIR] [--key-env NAME] [--files-dir DIR]\n' +
  '  The key comes from AGENT_STUDIO_API_KEY, or from the environment variable --key-env names.\n' +
  '  upload_file reads, and login/refresh_session `path` write, files only inside --files-dir\n' +
  `  (or AGENT_STUDIO_MCP_FILES_DIR; default ${DEFAULT_MCP_FILES_DIR}).`;

// A stray console.log from any library would corrupt the protocol stream: send them all to stderr.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

const fail = (message: string, code: number) => {
  process.stderr.write(`${message}\n`);
  return code;
};

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        'data-dir': { type: 'string' },
        'key-env': { type: 'string' },
        'files-dir': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (err) {
    return fail(`${(err as Error).message}\n${USAGE}`, 2);
  }
  if (args.help) return fail(USAGE, 0);
  const keyEnv = args['key-env'] ?? 'AGENT_STUDIO_API_KEY';
  const apiKey = process.env[keyEnv]?.trim();
  if (!apiKey) return fail(`Set ${keyEnv} to an API key (npm run -s cli -- keys create --org NAME).\n${USAGE}`, 2);

  let config;
  try {
    config = loadConfig({ dataDir: args['data-dir'] });
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message, 2);
    throw err;
  }
  const core = createCore(config);
  // Refused at once, with a reason, rather than as a 401 on every tool call.
  if (!core.keys.authenticate(apiKey)) {
    await core.dispose();
    return fail(`The API key in ${keyEnv} is not a valid key of the data dir ${config.dataDir}.`, 2);
  }
  let files;
  try {
    files = new McpFileAccess({
      folder: args['files-dir'] ?? process.env.AGENT_STUDIO_MCP_FILES_DIR ?? DEFAULT_MCP_FILES_DIR,
      dataDir: config.dataDir,
      // Asked at each use: a key revoked while the host keeps this process running loses file access at once.
      scopes: () => core.keys.authenticate(apiKey)?.scopes ?? null,
    });
  } catch (err) {
    await core.dispose();
    return fail((err as Error).message, 2);
  }
  await core.secrets.check().catch((err: Error) => process.stderr.write(`warning: ${err.message}\n`));
  for (const notice of core.takeNotices()) process.stderr.write(`note: ${notice}\n`);

  // Listening (127.0.0.1, any free port) makes presigned upload and video URLs reachable; it also runs the renders.
  // Not recorded in server.json: this listener lives only as long as the agent host keeps this process.
  let running;
  try {
    running = await startServer(core, { host: '127.0.0.1', port: 0, recordAddress: false });
  } catch (err) {
    await core.dispose();
    return fail((err as Error).message, 1);
  }
  const ownHost = `127.0.0.1:${running.port}`;
  // Links outlive this process when they point at the running server of the data dir (mcp-link-host.ts). Only the
  // local blob store's links name a server at all; S3's point at the bucket.
  const links = core.video.blobs.selfServed
    ? new LinkHost({ identity: { installId: core.installId, dataDir: config.dataDir }, ownHost, log: core.log })
    : null;
  const server = createMcpServer({
    app: running.app,
    apiKey,
    host: links ? () => links.current() : ownHost,
    linkLifetimeNote: links ? linkLifetimeNote(running.url, await links.liveServer()) : undefined,
    linkNote: links ? async () => ((await links.liveServer()) ? null : SHORT_LIVED_LINKS) : undefined,
    events: core.events,
    log: core.log,
    files,
    allowInlineCredentials: core.config.mcp.allowInlineCredentials,
    takeoverLinksInContent: core.config.mcp.takeoverLinksInContent,
    scopes: core.keys.authenticate(apiKey)?.scopes ?? [],
  });

  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (why: string) => {
      if (stopping) return;
      stopping = true;
      core.log.info({ why }, 'mcp stdio server stopping');
      void server
        .close()
        .catch(() => undefined)
        .then(() => running.close())
        .then(resolve, (err: Error) => {
          process.stderr.write(`shutdown error: ${err.message}\n`);
          resolve();
        });
    };
    // The host closes stdin when it is done with the server.
    process.stdin.once('end', () => stop('stdin closed'));
    process.stdin.once('close', () => stop('stdin closed'));
    for (const signal of shutdownSignals(process.platform)) process.on(signal, () => stop(signal));
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  answerMalformedRequests(transport);
  core.log.info({ url: running.url, dataDir: config.dataDir }, 'mcp stdio server ready');
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
