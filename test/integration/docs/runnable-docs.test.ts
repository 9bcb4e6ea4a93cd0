// The docs' examples run as written (issue 45). A fenced block of README.md or docs/*.md whose info string says
// `runnable` (```sh runnable, ```ts runnable, ```python runnable), or an MCP host configuration (```json mcp-config),
// is executed here against a real server and a real fixture site, the way a reader would run it:
//
// - The reader has set AGENT_STUDIO_URL and AGENT_STUDIO_KEY (docs/getting-started.md#call-the-api) and saved the
//   login the docs use, labelled 'App work' (README.md#log-in-from-an-agent-in-60-seconds). Here the server is
//   in process (startTestServer), the site is classic-csrf, the login is saved as the person saves it
//   (POST /api/credentials), and the key is the agent's key of README.md: login:write and credentials:read only.
// - A block's lines `# => text` (sh, python) or `// => text` (ts) are what it prints: each must appear in its output,
//   in order. Every block must exit with 0. The blocks of one file run in order in one folder (state.json of one
//   block is there for the next), as in one shell.
// - sh: bash -e -o pipefail. ts: node --import tsx, with `@agent-studio/client` mapped to src/client and
//   `playwright` to playwright-core with the suite's Chromium (a reader's `npm install playwright` downloads one).
//   python: .python/venv/bin/python (the bootstrap's test mode makes it); without it the python blocks are skipped
//   with a message, and fail under CI.
// - mcp-config: every server entry is started as the host would start it and must list the login tools: `command`
//   entries must name a script of package.json (npm run … mcp) and run its command with the entry's env; `url`
//   entries are connected over Streamable HTTP. Placeholders: /path/to/agent-studio is this checkout, /path/to/data
//   the server's data dir, pk_… the key, http://127.0.0.1:4780 the server's address.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBrowserExecutable } from '../../../src/main/core/login/browser/browser-resolver.js';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { TEST_BROWSER_ARGS } from '../../helpers/browser.js';
import { codeBlocksOf, docFiles, type CodeBlock } from '../../helpers/markdown.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { inCi, titleWithSkip } from '../../helpers/requires.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';

/** The label of the saved login every example uses. */
const LABEL = 'App work';
/** The scopes of the agent's key in README.md's 60 seconds. */
const AGENT_SCOPES = ['login:write', 'credentials:read'];
const PYTHON = path.join(REPO_ROOT, '.python', 'venv', 'bin', 'python');
const BLOCK_TIMEOUT_MS = 50_000;
/** tsx's loader, for `node --import` from a folder outside the checkout. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

type Kind = 'sh' | 'ts' | 'python' | 'mcp-config';

interface Runnable extends CodeBlock {
  file: string;
  kind: Kind;
}

/** The kind of a block by its info string, or null for a block that is not marked to run. */
function kindOf(info: string): Kind | null {
  const [lang, ...words] = info.split(/\s+/);
  if (lang === 'json' && words.includes('mcp-config')) return 'mcp-config';
  if (!words.includes('runnable')) return null;
  if (lang === 'sh' || lang === 'bash') return 'sh';
  if (lang === 'ts' || lang === 'typescript') return 'ts';
  if (lang === 'python' || lang === 'py') return 'python';
  throw new Error(`a runnable block in ${lang}: the runner knows sh, ts and python`);
}

const runnables: Runnable[] = docFiles()
  .filter((file) => file === 'README.md' || file.startsWith('docs/'))
  .flatMap((file) =>
    codeBlocksOf(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')).flatMap((block) => {
      const kind = kindOf(block.info);
      return kind ? [{ ...block, file, kind }] : [];
    }),
  );

/** The `# => text` / `// => text` lines of a block: what its output must contain, in order. */
const expectedOutput = (code: string) => [...code.matchAll(/^\s*(?:#|\/\/) => (.+)$/gm)].map((m) => m[1]!.trim());

let t: TestServer;
let site: FixtureSite;
let agentKey: string;
let work: string;

beforeAll(async () => {
  t = await startTestServer({ login: { timeoutMs: 30_000 } });
  site = await startSite('classic-csrf');
  const saved = await t.request('/api/credentials', {
    method: 'POST',
    json: {
      label: LABEL,
      loginUrl: site.loginUrl,
      username: site.credentials.username,
      password: site.credentials.password,
    },
  });
  expect(saved.status, await saved.clone().text()).toBe(201);
  agentKey = t.core.keys.create(t.orgId, { scopes: AGENT_SCOPES, name: 'my-agent' }).key;
  work = tempDir();
  makeNodeModules(path.join(work, 'node_modules'));
  fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
});

afterAll(async () => {
  await site?.close();
  await t?.close();
});

/**
 * What a reader's project has after installing the client and Playwright: `@agent-studio/client` (the source in
 * src/client, as the package clients/typescript builds it), `playwright` (playwright-core, launching the Chromium
 * the suite uses, with the suite's flags) and, for the shim, `playwright-core` itself.
 */
function makeNodeModules(dir: string) {
  const client = path.join(dir, '@agent-studio', 'client');
  fs.mkdirSync(client, { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, 'src'), path.join(client, 'src'));
  fs.writeFileSync(
    path.join(client, 'package.json'),
    JSON.stringify({
      name: '@agent-studio/client',
      type: 'module',
      exports: { '.': './src/client/index.ts', './playwright': './src/client/playwright.ts' },
    }),
  );
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', 'playwright-core'), path.join(dir, 'playwright-core'));
  const playwright = path.join(dir, 'playwright');
  fs.mkdirSync(playwright);
  fs.writeFileSync(
    path.join(playwright, 'package.json'),
    JSON.stringify({ name: 'playwright', type: 'module', exports: './index.js' }),
  );
  const launchDefaults = { executablePath: resolveBrowserExecutable({}).path, args: TEST_BROWSER_ARGS };
  fs.writeFileSync(
    path.join(playwright, 'index.js'),
    [
      "import pw from 'playwright-core';",
      'const launch = pw.chromium.launch.bind(pw.chromium);',
      `pw.chromium.launch = (options = {}) => launch({ ...${JSON.stringify(launchDefaults)}, ...options });`,
      'export const { chromium, firefox, webkit, devices, errors, request, selectors } = pw;',
      'export default pw;',
    ].join('\n'),
  );
}

/** The folder a file's blocks run in, made on first use. */
function folderOf(file: string): string {
  const dir = path.join(work, file.replace(/[^\w.-]+/g, '_'));
  if (!fs.existsSync(dir)) fs.mkdirSync(dir);
  return dir;
}

/** The reader's environment: the two variables of docs/getting-started.md#call-the-api. */
const readerEnv = (): NodeJS.ProcessEnv => ({ ...process.env, AGENT_STUDIO_URL: t.url, AGENT_STUDIO_KEY: agentKey });

/** Runs a command to its end (killed after BLOCK_TIMEOUT_MS): its exit code and output. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, input?: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], timeout: BLOCK_TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** Runs a sh, ts or python block as the reader would and checks its exit code and its `=>` lines. */
async function runBlock(block: Runnable) {
  const cwd = folderOf(block.file);
  let result: Awaited<ReturnType<typeof run>>;
  if (block.kind === 'sh') {
    result = await run('bash', ['-e', '-o', 'pipefail', '-s'], cwd, readerEnv(), block.code);
  } else if (block.kind === 'ts') {
    const file = path.join(cwd, `block-${block.line}.ts`);
    fs.writeFileSync(file, block.code);
    // node_modules and package.json of the reader's project are in `work`, above the file's folder.
    result = await run(process.execPath, ['--import', TSX, file], cwd, readerEnv());
  } else {
    const file = path.join(cwd, `block-${block.line}.py`);
    fs.writeFileSync(file, block.code);
    result = await run(PYTHON, [file], cwd, readerEnv());
  }
  const where = `${block.file}:${block.line}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
  expect(result.code, where).toBe(0);
  let from = 0;
  for (const want of expectedOutput(block.code)) {
    const at = result.stdout.indexOf(want, from);
    expect(at, `${where}\n--- expected, after what came before: ${want}`).toBeGreaterThanOrEqual(0);
    from = at + want.length;
  }
}

/** The placeholders of an MCP host configuration, replaced with this run's checkout, data dir, key and address. */
function filledIn(config: string): string {
  return config
    .replaceAll('/path/to/agent-studio', REPO_ROOT)
    .replaceAll('/path/to/data', t.dataDir)
    .replaceAll('pk_…', agentKey)
    .replaceAll('http://127.0.0.1:4780', t.url);
}

interface ServerEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  type?: string;
  url?: string;
  headers?: Record<string, string>;
}

/**
 * What `npm run [-s] [--prefix DIR] SCRIPT -- ARGS` starts: the script's command from package.json, which runs the
 * bootstrap, then `node <the rest>`. The bootstrap has already run for this `npm test` (and would only check the
 * machine again), so the entry is started from the part after `--then`, with node, in the checkout it names.
 */
function npmScriptCommand(entry: ServerEntry): { args: string[]; cwd: string } {
  expect(entry.command).toBe('npm');
  const args = [...(entry.args ?? [])];
  expect(args.shift()).toBe('run');
  let cwd = process.cwd();
  while (args[0]?.startsWith('-') && args[0] !== '--') {
    const flag = args.shift()!;
    if (flag === '--prefix') cwd = args.shift()!;
  }
  const script = args.shift()!;
  const rest = args[0] === '--' ? args.slice(1) : args;
  const pkg = JSON.parse(fs.readFileSync(path.join(cwd, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const command = pkg.scripts[script];
  expect(command, `package.json has no script "${script}"`).toBeTypeOf('string');
  const [, afterThen] = command!.split(' --then ');
  expect(command, 'a script that runs the bootstrap, then node').toMatch(/^node scripts\/bootstrap\.mjs .* --then /);
  return { args: [...afterThen!.split(' '), ...rest], cwd };
}

/** Connects to one server entry of a host configuration as the host would, and lists its tools. */
async function toolsOf(entry: ServerEntry): Promise<string[]> {
  const client = new Client({ name: 'runnable-docs', version: '1.0.0' });
  if (entry.url) {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers ?? {} } }),
    );
  } else {
    const { args, cwd } = npmScriptCommand(entry);
    // Without --data-dir the server uses the app's data folder: here that is this run's server's.
    const env = { ...(process.env as Record<string, string>), AGENT_STUDIO_DATA_DIR: t.dataDir, ...entry.env };
    const transport = new StdioClientTransport({ command: process.execPath, args, cwd, env, stderr: 'pipe' });
    let stderr = '';
    // Read, so a chatty server never blocks on a full pipe; shown when it does not start.
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    await client.connect(transport).catch((err: unknown) => {
      throw new Error(`the MCP server did not start: ${String(err)}\n--- stderr\n${stderr}`);
    });
  }
  try {
    return (await client.listTools()).tools.map((tool) => tool.name).sort();
  } finally {
    await client.close();
  }
}

async function runMcpConfig(block: Runnable) {
  const config = JSON.parse(filledIn(block.code)) as { mcpServers: Record<string, ServerEntry> };
  expect(Object.keys(config.mcpServers).length, `${block.file}:${block.line}`).toBeGreaterThan(0);
  for (const [name, entry] of Object.entries(config.mcpServers)) {
    // The agent's key (login:write, credentials:read) is offered exactly the login tools.
    expect(await toolsOf(entry), `${block.file}:${block.line} ${name}`).toEqual([
      'list_credentials',
      'login',
      'refresh_session',
      'wait_for_login',
    ]);
  }
}

describe('runnable blocks of the docs', () => {
  it('finds them: sh, ts and an MCP configuration in README.md, more in docs/', () => {
    const readme = runnables.filter((b) => b.file === 'README.md').map((b) => b.kind);
    expect(readme).toEqual(expect.arrayContaining(['sh', 'ts', 'mcp-config']));
    expect(runnables.some((b) => b.file === 'docs/agents.md' && b.kind === 'mcp-config')).toBe(true);
  });

  it('reads a block the way the runner does: its kind and the output it promises', () => {
    expect(kindOf('sh runnable')).toBe('sh');
    expect(kindOf('ts')).toBeNull();
    expect(kindOf('json mcp-config')).toBe('mcp-config');
    expect(() => kindOf('ruby runnable')).toThrow(/sh, ts and python/);
    expect(expectedOutput('curl …\n# => 200\nconsole.log(x); // not this\n  // => logged in')).toEqual([
      '200',
      'logged in',
    ]);
  });

  const python = fs.existsSync(PYTHON);
  for (const block of runnables) {
    const title = `${block.file}:${block.line} (${block.kind})`;
    if (block.kind === 'python' && !python && !inCi()) {
      // Skipped only outside CI: the Python blocks need the venv the bootstrap makes (`npm test` does); a developer's
      // bare `vitest run` may lack it. Under CI the block runs, and a missing venv fails it (requires.ts's rule).
      it.skip(titleWithSkip(title, false, '.python/venv is missing: `npm test` makes it; under CI this fails'));
      continue;
    }
    it(title, async () => {
      if (block.kind === 'python' && !python) throw new Error(`${PYTHON} is missing (npm test's bootstrap makes it)`);
      await (block.kind === 'mcp-config' ? runMcpConfig(block) : runBlock(block));
    });
  }
});
