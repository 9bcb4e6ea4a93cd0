// The acceptance test of saved logins (docs/saved-logins.md): log in with every method through saved logins, once
// inline, and fail twice (a wrong password, a provider outside the saved login's origins), over HTTP and over MCP
// (Streamable HTTP at /mcp). Then no secret — password, TOTP secret, notes, additional field value, mailbox
// password — is found in any form (plain, JSON, URL- or form-encoded, hex, base64, base64url) in the data dir (every
// file, the SQLite database after a WAL checkpoint, the encrypted secrets file of the file backend), the log, any
// HTTP answer (body and headers) or any MCP message. With the OS keychain and with the encrypted-file backend.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../../../fixtures/sites/index.js';
import { startDovecot, type Dovecot } from '../../../helpers/dovecot.js';
import { callTool, dataOf, textOf } from '../../../helpers/mcp-agent.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import {
  addMailbox,
  distinctSecret,
  filesUnder,
  findSecrets,
  MAIL_USER,
  randomTotpSecret,
  recordingClient,
  saveLogin,
  settle,
  startGoogleSite,
  toMailbox,
  type GoogleSite,
  type Haystack,
  type Json,
  type RecordingClient,
} from '../../../helpers/vault-logins.js';

const IMAP_PASSWORD = distinctSecret('imap');
let dovecot: Dovecot;

beforeAll(async () => {
  dovecot = await startDovecot({ users: [{ user: MAIL_USER, password: IMAP_PASSWORD }] });
});
afterAll(async () => {
  await dovecot?.close();
});

/** Every secret of one run, by name (fresh values per backend). */
function makeSecrets() {
  return {
    imapPassword: IMAP_PASSWORD,
    totpHttpPassword: distinctSecret('totp-http-pw'),
    totpHttpSecret: randomTotpSecret(),
    totpMcpPassword: distinctSecret('totp-mcp-pw'),
    totpMcpSecret: randomTotpSecret(),
    totpNotes: distinctSecret('totp-notes'),
    extraFieldValue: distinctSecret('extra-field'),
    emailPassword: distinctSecret('email-pw'),
    magicNotes: distinctSecret('magic-notes'),
    googleHttpPassword: distinctSecret('google-http-pw'),
    googleHttpTotp: randomTotpSecret(),
    googleMcpPassword: distinctSecret('google-mcp-pw'),
    googleMcpTotp: randomTotpSecret(),
    mismatchPassword: distinctSecret('mismatch-pw'),
    wrongPassword: distinctSecret('wrong-pw'),
    wrongNotes: distinctSecret('wrong-notes'),
    patchedNotes: distinctSecret('patched-notes'),
    inlinePassword: distinctSecret('inline-pw'),
    mcpInlinePassword: distinctSecret('mcp-inline-pw'),
  };
}
type Secrets = ReturnType<typeof makeSecrets>;

/**
 * A body read as it arrives: an event stream the client aborts once it has its answer still leaves every chunk
 * read before the abort (text() would lose them all).
 */
async function readAll(res: Response): Promise<string> {
  const chunks: Uint8Array[] = [];
  const reader = res.body?.getReader();
  try {
    for (let r = await reader?.read(); r && !r.done; r = await reader!.read()) chunks.push(r.value);
  } catch {
    // aborted by the client after its answer came
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An MCP client whose every message (requests it sends, answers and their headers) is kept. */
async function recordingMcp(t: TestServer): Promise<{ client: Client; traffic: () => Promise<Haystack[]> }> {
  const kept: Promise<Haystack>[] = [];
  let n = 0;
  const capture = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const i = ++n;
    if (typeof init?.body === 'string') kept.push(Promise.resolve({ where: `MCP request ${i}`, data: init.body }));
    const res = await fetch(url, init);
    const head = `${res.status} ${JSON.stringify([...res.headers])}`;
    kept.push(readAll(res.clone()).then((body) => ({ where: `MCP answer ${i}`, data: `${head}\n${body}` })));
    return res;
  };
  const client = new Client({ name: 'vault-no-secret-escapes', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${t.key}` } },
    fetch: capture,
  });
  await client.connect(transport);
  return { client, traffic: () => Promise.all(kept) };
}

describe.each(['keychain', 'file'] as const)('with the %s secret store', (backend) => {
  const s: Secrets = makeSecrets();
  let t: TestServer;
  let closed = false;
  let google: GoogleSite;
  let sites: Record<'totpHttp' | 'totpMcp' | 'email' | 'magic' | 'classic', FixtureSite>;
  let http: RecordingClient;

  beforeAll(async () => {
    const mail = toMailbox(dovecot);
    const [totpHttp, totpMcp, email, magic, classic] = await Promise.all([
      startSite('totp', { password: s.totpHttpPassword, totpSecret: s.totpHttpSecret }),
      startSite('totp', { password: s.totpMcpPassword, totpSecret: s.totpMcpSecret }),
      startSite('email-code', { password: s.emailPassword, sendMail: mail }),
      startSite('magic-link', { sendMail: mail }),
      startSite('classic-csrf', { password: s.inlinePassword }),
    ]);
    sites = { totpHttp, totpMcp, email, magic, classic };
    google = await startGoogleSite([
      { login: 'ann@example.com', password: s.googleHttpPassword, totpSecret: s.googleHttpTotp },
      { login: 'ann.mcp@example.com', password: s.googleMcpPassword, totpSecret: s.googleMcpTotp },
      { login: 'bob@example.com', password: s.mismatchPassword },
    ]);
    t = await startTestServer({
      secrets: { backend },
      log: { level: 'debug' },
      login: { timeoutMs: 45_000, codeTimeoutMs: 20_000, oauth: { google: { origins: [google.idp.origin] } } },
    });
    http = recordingClient(t);
  });
  afterAll(async () => {
    if (!closed) await t?.close();
    await google?.close();
    await Promise.all(Object.values(sites ?? {}).map((site) => site.close()));
  });

  /** The saved logins a person makes (through the recording client: their answers are searched too). */
  async function saveAll(mailboxId: string) {
    const save = (body: Json) => saveLogin(http.post, body);
    const { site: notes, idp } = google;
    return {
      totpHttp: await save({
        label: 'Keystone (HTTP)',
        loginUrl: sites.totpHttp.loginUrl,
        username: sites.totpHttp.credentials.username,
        password: s.totpHttpPassword,
        totpSecret: s.totpHttpSecret,
        notes: s.totpNotes,
        additionalFields: { xq_memo: s.extraFieldValue },
      }),
      totpMcp: await save({
        label: 'Keystone (MCP)',
        loginUrl: sites.totpMcp.loginUrl,
        username: sites.totpMcp.credentials.username,
        password: s.totpMcpPassword,
        totpSecret: s.totpMcpSecret,
      }),
      email: await save({
        label: 'Acme Cloud',
        loginUrl: sites.email.loginUrl,
        loginMethod: 'otp_email',
        username: sites.email.credentials.username,
        password: s.emailPassword,
        mailboxId,
      }),
      magic: await save({
        label: 'Driftwood',
        loginUrl: sites.magic.loginUrl,
        loginMethod: 'magic_link',
        username: sites.magic.credentials.username,
        mailboxId,
        notes: s.magicNotes,
      }),
      googleHttp: await save({
        label: 'Acme Notes (HTTP)',
        loginUrl: notes.loginUrl,
        loginMethod: 'oauth_google',
        username: 'ann@example.com',
        password: s.googleHttpPassword,
        totpSecret: s.googleHttpTotp,
      }),
      googleMcp: await save({
        label: 'Acme Notes (MCP)',
        loginUrl: notes.loginUrl,
        loginMethod: 'oauth_google',
        username: 'ann.mcp@example.com',
        password: s.googleMcpPassword,
        totpSecret: s.googleMcpTotp,
      }),
      mismatch: await save({
        label: 'Acme Notes (site only)',
        loginUrl: notes.loginUrl,
        loginMethod: 'oauth_google',
        username: 'bob@example.com',
        password: s.mismatchPassword,
        origins: [notes.origin],
      }),
      wrong: await save({
        label: 'Classic (wrong password)',
        loginUrl: sites.classic.loginUrl,
        username: sites.classic.credentials.username,
        password: s.wrongPassword,
        notes: s.wrongNotes,
        additionalFields: { xq_memo: s.extraFieldValue },
      }),
      idpOrigin: idp.origin,
    };
  }

  it('logs in with every method, inline and failing, over HTTP and MCP: no secret anywhere', async () => {
    const mailboxId = await addMailbox(t, dovecot, IMAP_PASSWORD);
    const saved = await saveAll(mailboxId);
    expect(saved.googleHttp.origins).toEqual([google.site.origin, saved.idpOrigin]);

    // --- over HTTP
    const login = async (credential: string, status: number, error?: string) => {
      const res = await http.post('/api/login', { credential, useCache: false });
      const body = (await res.json()) as Json;
      expect(res.status, `${credential}: ${JSON.stringify(body)}`).toBe(status);
      if (error) expect(body.error).toBe(error);
    };
    for (const name of ['totpHttp', 'email', 'magic', 'googleHttp'] as const) await login(saved[name].label, 200);
    await login(saved.wrong.label, 401, 'AUTHENTICATION_FAILED');
    const idpBefore = google.idp.stats();
    await login(saved.mismatch.label, 422, 'CREDENTIAL_ORIGIN_MISMATCH');
    expect(google.idp.stats()).toEqual(idpBefore);
    const inline = await http.post('/api/login', {
      cred: { username: sites.classic.credentials.username, password: s.inlinePassword },
      domain: sites.classic.loginUrl,
      storeCredentials: true,
      useCache: false,
    });
    expect(inline.status, await inline.clone().text()).toBe(200);
    const refreshed = await http.post('/api/refresh', { credential: saved.email.id, force: true });
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
    expect(refreshed.headers.get('x-session-refresh')).toBe('renewed');
    const patched = await http.request(`/api/credentials/${saved.wrong.id}`, {
      method: 'PATCH',
      json: { notes: s.patchedNotes },
    });
    expect(patched.status).toBe(200);
    // everything a person or an agent reads back
    const list = (await (await http.request('/api/credentials')).json()) as { data: Json[] };
    expect(list.data).toHaveLength(9); // the 8 saved, and the one storeCredentials kept
    for (const c of list.data) {
      expect((await http.request(`/api/credentials/${c.id as string}`)).status).toBe(200);
      expect((await http.request(`/api/credentials/${c.id as string}/uses`)).status).toBe(200);
    }
    expect((await http.request('/api/sessions')).status).toBe(200);
    expect((await http.request('/api/mailboxes')).status).toBe(200);

    // --- over MCP
    const mcp = await recordingMcp(t);
    try {
      const listed = dataOf<{ data: { label: string }[] }>(await callTool(mcp.client, 'list_credentials'));
      expect(listed.data.map((c) => c.label)).toContain(saved.totpMcp.label);
      for (const name of ['totpMcp', 'email', 'magic', 'googleMcp'] as const) {
        const state = dataOf<{ cookies: unknown[] }>(
          await callTool(mcp.client, 'login', { credential: saved[name].label, useCache: false }),
        );
        expect(state.cookies.length, name).toBeGreaterThan(0);
      }
      const wrong = await callTool(mcp.client, 'login', { credential: saved.wrong.label, useCache: false });
      expect(wrong.isError).toBe(true);
      expect(textOf(wrong)).toContain('AUTHENTICATION_FAILED');
      const mismatch = await callTool(mcp.client, 'login', { credential: saved.mismatch.id, useCache: false });
      expect(mismatch.isError).toBe(true);
      expect(textOf(mismatch)).toContain('CREDENTIAL_ORIGIN_MISMATCH');
      // an agent that passes a password anyway is refused, and the refusal does not echo it
      const inlineMcp = await callTool(mcp.client, 'login', {
        credential: saved.wrong.label,
        cred: { username: 'someone', password: s.mcpInlinePassword },
      });
      expect(inlineMcp.isError).toBe(true);
      const renewed = await callTool(mcp.client, 'refresh_session', { credential: saved.magic.label, force: true });
      expect(dataOf<{ cookies: unknown[] }>(renewed).cookies.length).toBeGreaterThan(0);
      expect(textOf(renewed)).toContain('renewed');
    } finally {
      await mcp.client.close();
    }
    // Each tool call's answer stream ended with its result; the session's own GET stream (server notifications)
    // stays open until the client closes, so the traffic is read after the close.
    const mcpTraffic = await mcp.traffic();
    // every tool call's answer was captured whole: the 9 results (errors included) are in the kept traffic
    expect(mcpTraffic.filter((h) => /"result":\{"content"/.test(String(h.data)))).toHaveLength(9);

    // --- the secrets are where they belong: readable from the secret store of this backend
    expect(t.core.secrets.backend).toBe(backend);
    const stored = JSON.parse((await t.core.secrets.get(`saved-login:${saved.totpHttp.id}`))!) as Json;
    expect(stored).toMatchObject({
      password: s.totpHttpPassword,
      totpSecret: s.totpHttpSecret,
      notes: s.totpNotes,
      additionalFields: { xq_memo: s.extraFieldValue },
    });
    // Saved logins' secrets are sealed in the vault file whatever the backend; the backend holds only its key.
    const sealedAccounts = (file: string) =>
      Object.keys((JSON.parse(fs.readFileSync(path.join(t.dataDir, file), 'utf8')) as { entries: Json }).entries);
    expect(sealedAccounts('vault.enc.json').sort()).toEqual(
      list.data.map((c) => `saved-login:${c.id as string}`).sort(),
    );
    const secretsFile = path.join(t.dataDir, 'secrets.enc.json');
    if (backend === 'file') {
      expect(sealedAccounts('secrets.enc.json')).toContainEqual(expect.stringMatching(/:vault-key$/));
      expect(sealedAccounts('secrets.enc.json').filter((a) => a.includes('saved-login:'))).toEqual([]);
    } else expect(fs.existsSync(secretsFile)).toBe(false);

    // --- the search can fail: a planted secret is found, plain and inside base64 at any alignment
    const planted = path.join(t.dataDir, 'planted-scratch.bin');
    const probe = { planted: s.wrongNotes };
    for (const prefix of ['', 'x', 'xy']) {
      fs.writeFileSync(planted, Buffer.from(`${prefix}{"notes":"${s.wrongNotes}"}`).toString('base64'));
      expect(findSecrets(filesUnder(t.dataDir), probe)).toContainEqual(expect.stringMatching(/base64.* in .*planted/));
    }
    fs.writeFileSync(planted, encodeURIComponent(s.wrongNotes));
    expect(findSecrets(filesUnder(t.dataDir), probe)).toContain(`planted (URL-encoded) in ${planted}`);
    fs.rmSync(planted);

    // --- the search
    await settle(t);
    await t.core.logger.flush();
    const log = fs.readFileSync(t.core.logger.file, 'utf8');
    expect(log).toContain('saved login added');
    expect(log).toContain('/mcp');
    const db = fs.readFileSync(path.join(t.dataDir, 'agent-studio.db'));
    expect(db.includes(Buffer.from(saved.totpHttp.label))).toBe(true); // the checkpoint put the rows in the file
    const all: Record<string, string> = { ...s };
    const { mcpInlinePassword: _sent, ...notSent } = all;
    const requests = mcpTraffic.filter((h) => h.where.startsWith('MCP request'));
    const hits = [
      ...findSecrets(
        [
          ...filesUnder(t.dataDir),
          { where: 'the log file', data: log },
          ...(await http.answers()),
          ...mcpTraffic.filter((h) => !requests.includes(h)),
        ],
        all,
      ),
      // the one request that carried a password on purpose aside, no message the MCP client sent has one
      ...findSecrets(requests, notSent),
    ];
    expect(hits).toEqual([]);

    // and once more after the server stopped (everything logged at shutdown is in the file)
    closed = true;
    await t.close();
    expect(findSecrets(filesUnder(t.dataDir), all)).toEqual([]);
  }, 300_000);
});
