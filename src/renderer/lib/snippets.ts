// What the window hands to an agent: the storageState as JSON, and ready-to-run Playwright and curl
// snippets that fetch a session from this app. Pure. Secrets never go into a snippet: the API key is
// `$KEY` (process.env.KEY) and a password `$PASSWORD`, read from the environment where it runs.

/** Where agents reach the app when its API is not listening (the default port). */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:4780';

export interface SessionRequest {
  /** The login page given to POST /api/login. */
  domain: string;
  username: string;
  loginMethod: string;
}

/** The POST /api/login body a snippet sends; the password comes from the environment. */
function loginBody(req: SessionRequest, password: string): Record<string, unknown> {
  return {
    domain: req.domain,
    cred: { username: req.username, password },
    loginMethod: req.loginMethod,
    useCache: true,
  };
}

/** A single-quoted shell word ('it'\''s'). */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * curl that writes the storageState (a cached session when there is one) into state.json. In a subshell (the
 * person's own shell keeps its umask): the file is made readable by its owner only (umask 077, and chmod 600 for
 * a state.json that already existed) before the session's cookies go into it. The password is spliced in from
 * $PASSWORD with its `\` and `"` escaped for JSON, so any password makes a valid request body.
 */
export function curlSnippet(serverUrl: string | null, req: SessionRequest): string {
  const marker = '__PASSWORD__';
  const json = JSON.stringify(loginBody(req, marker));
  // '..."password":"'"$password_json"'"...': the shell joins the quoted JSON around the escaped password.
  const [before, after] = shellQuote(json).split(marker);
  return [
    `(`,
    `  umask 077`,
    `  touch state.json && chmod 600 state.json`,
    `  password_json=$(printf '%s' "$PASSWORD" | sed -e 's/\\\\/\\\\\\\\/g' -e 's/"/\\\\"/g')`,
    `  curl -sS -X POST ${shellQuote(`${serverUrl ?? DEFAULT_SERVER_URL}/api/login`)} \\`,
    `    -H "Authorization: Bearer $KEY" \\`,
    `    -H 'Content-Type: application/json' \\`,
    `    -d ${before}'"$password_json"'${after} \\`,
    `    -o state.json`,
    `)`,
  ].join('\n');
}

/** Playwright (Node) that gets the session from the app and opens a logged-in context with it. */
export function playwrightSnippet(serverUrl: string | null, req: SessionRequest): string {
  const body = JSON.stringify(loginBody(req, '__PASSWORD__'), null, 2)
    .replace('"__PASSWORD__"', 'process.env.PASSWORD')
    .replace(/\n/g, '\n  ');
  return [
    `import { chromium } from 'playwright';`,
    ``,
    `const res = await fetch(${JSON.stringify(`${serverUrl ?? DEFAULT_SERVER_URL}/api/login`)}, {`,
    `  method: 'POST',`,
    `  headers: { Authorization: \`Bearer \${process.env.KEY}\`, 'Content-Type': 'application/json' },`,
    `  body: JSON.stringify(${body}),`,
    `});`,
    `if (!res.ok) throw new Error(\`login failed: \${res.status} \${await res.text()}\`);`,
    `const storageState = await res.json();`,
    ``,
    `const browser = await chromium.launch();`,
    `const context = await browser.newContext({ storageState });`,
    `const page = await context.newPage();`,
    `await page.goto(${JSON.stringify(req.domain)});`,
  ].join('\n');
}

/** The storageState as a file's content: pretty JSON, as Playwright writes it. */
export const storageStateJson = (state: unknown) => `${JSON.stringify(state, null, 2)}\n`;

/** A file name for a session's storageState: `state-<host>.json`. */
export function storageStateFileName(domain: string): string {
  let host = 'session';
  try {
    host = new URL(domain).hostname.replace(/[^A-Za-z0-9.-]/g, '_') || host;
  } catch {
    // not a URL: the generic name
  }
  return `state-${host}.json`;
}
