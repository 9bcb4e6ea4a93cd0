import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { firstRunKey, spawnServer, type ServerProcess } from '../../helpers/spawn.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** Preloaded into the server: writes the npm packages the process loaded to MODULE_TRACE_FILE at exit. */
const TRACE_HOOK = pathToFileURL(path.join(REPO_ROOT, 'test/fixtures/module-trace/record-packages.mjs')).href;

/**
 * What a default set-up (SQLite, local disk, local ffmpeg, no IMAP mailbox, no MCP client) never uses, so the
 * server loads none of it at start or for an ordinary request (issue 25: each costs megabytes of heap).
 * `scope/*` is every package of the scope.
 */
const OPTIONAL = [
  '@aws-sdk/*', // S3 blob store, storage check
  '@smithy/*',
  'imapflow', // mailboxes
  'mailparser',
  'libmime',
  '@zone-eu/mailsplit',
  'nodemailer',
  'html-to-text', // codes in HTML mail
  '@modelcontextprotocol/*', // the /mcp route
  'hono',
  '@hono/node-server',
  'got', // webhooks, providers, media URLs, MCP upload_file
  'csv-parse', // vault import
  'snappyjs', // Firefox profile import
  '@scalar/*', // the API reference page (GET /docs)
];

const isOptional = (name: string) =>
  OPTIONAL.some((p) => (p.endsWith('/*') ? name.startsWith(p.slice(0, -1)) : name === p));

describe('the headless server loads optional libraries on first use, not at start', () => {
  const dataDir = tempDir();
  const traceFile = path.join(tempDir(), 'packages.txt');
  let server: ServerProcess;
  let loaded: string[];

  beforeAll(async () => {
    server = await spawnServer(['--port', '0', '--data-dir', dataDir], {
      MODULE_TRACE_FILE: traceFile,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${TRACE_HOOK}`].filter(Boolean).join(' '),
    });
    const res = await fetch(`${server.url}/api/templates`, {
      headers: { authorization: `Bearer ${firstRunKey(server)}` },
    });
    expect(res.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    loaded = fs.readFileSync(traceFile, 'utf8').split('\n').filter(Boolean);
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  it('the trace sees what the server does use (fastify, better-sqlite3)', () => {
    expect(loaded).toEqual(expect.arrayContaining(['fastify', 'better-sqlite3', 'pino']));
  });

  it('none of S3, IMAP, mail parsing, MCP, got, CSV, Snappy or the API reference was loaded', () => {
    expect(loaded.filter(isOptional)).toEqual([]);
  });
});
