// Shared by the vault tests (test/integration/login/vault/): saved logins for every login method (a real Dovecot
// mailbox, the code sites, a Google-style provider), an HTTP client that keeps every answer it receives, and a
// search for secrets in every form they could be written in (plain, JSON, URL-encoded, base64, base64url, hex).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Secret } from 'otpauth';
import { expect } from 'vitest';
import { startIdentityProvider } from '../fixtures/idp/identity-provider.js';
import { startRelyingPartySite, type RelyingPartySite } from '../fixtures/idp/relying-party-site.js';
import type { IdentityProvider, IdpUser } from '../fixtures/idp/types.js';
import type { OutboundMail } from '../fixtures/sites/index.js';
import { buildMail, type Dovecot } from './dovecot.js';
import type { TestServer } from './test-server.js';

export type Json = Record<string, unknown>;

/**
 * A secret no page, log or file holds by chance: a tag, 24 random hex digits, and characters that URL and form
 * encoding change (a space, & and /), so each encoded form is a different string to look for.
 */
export function distinctSecret(tag: string): string {
  return `${tag}-${crypto.randomBytes(12).toString('hex')} &Zq/`;
}

/** A random authenticator secret (base32, 160 bits). */
export const randomTotpSecret = (): string => new Secret({ size: 20 }).base32;

// ---------------------------------------------------------------------------------------------------------------
// The search

/**
 * base64 of `bytes` wherever they sit in a longer encoded text: for each of the 3 alignments, only the characters
 * that depend on these bytes alone (a secret inside base64 of a larger JSON is still found).
 */
function base64Cores(bytes: Buffer, encoding: 'base64' | 'base64url'): string[] {
  const cores: string[] = [];
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString(encoding);
    cores.push(encoded.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6)));
  }
  return cores;
}

/** Every form a secret could be written in, by name. */
export function secretForms(secret: string): Array<[form: string, text: string]> {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: Array<[string, string]> = [
    ['plain', secret],
    ['JSON string', JSON.stringify(secret).slice(1, -1)],
    ['URL-encoded', encodeURIComponent(secret)],
    ['form-encoded', new URLSearchParams({ x: secret }).toString().slice(2)],
    ['hex', bytes.toString('hex')],
    ...base64Cores(bytes, 'base64').map((c, i): [string, string] => [`base64 (offset ${i})`, c]),
    ...base64Cores(bytes, 'base64url').map((c, i): [string, string] => [`base64url (offset ${i})`, c]),
  ];
  // the same string twice (a secret with nothing to encode) is looked for once
  return forms.filter(([, text], i) => forms.findIndex(([, t]) => t === text) === i);
}

export interface Haystack {
  where: string;
  data: string | Buffer;
}

/** A secret found: which one (by name), where, and in which form. */
export type Hit = string;

/** Every (secret, form) found in the haystacks, as "name (form) in where". */
export function findSecrets(haystacks: Haystack[], secrets: Record<string, string>): Hit[] {
  const hits: Hit[] = [];
  for (const [name, secret] of Object.entries(secrets)) {
    expect(secret.length, `secret ${name} is too short to search for`).toBeGreaterThanOrEqual(12);
    const forms = secretForms(secret).map(([form, text]) => ({ form, needle: Buffer.from(text, 'utf8') }));
    for (const { where, data } of haystacks) {
      const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (const { form, needle } of forms) if (buf.includes(needle)) hits.push(`${name} (${form}) in ${where}`);
    }
  }
  return hits;
}

/** Every regular file under `dir`, recursively, read whole. */
export function filesUnder(dir: string): Haystack[] {
  const out: Haystack[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(file));
    else if (entry.isFile()) out.push({ where: file, data: fs.readFileSync(file) });
  }
  return out;
}

/** Flushes SQLite's WAL into the database file and the log to its file, so both are on disk to be searched. */
export async function settle(t: TestServer): Promise<void> {
  t.core.db.pragma('wal_checkpoint(TRUNCATE)');
  await t.core.logger.flush();
}

// ---------------------------------------------------------------------------------------------------------------
// An HTTP client that keeps what it receives

export interface RecordingClient {
  /** t.request, keeping every answer's status line, headers and body. */
  request: (pathname: string, init?: Parameters<TestServer['request']>[1]) => Promise<Response>;
  post: (pathname: string, json: unknown, key?: string) => Promise<Response>;
  /** Every answer received so far (bodies read from a clone, so callers read theirs as usual). */
  answers(): Promise<Haystack[]>;
}

export function recordingClient(t: TestServer): RecordingClient {
  const received: Promise<Haystack>[] = [];
  const request: RecordingClient['request'] = async (pathname, init) => {
    const res = await t.request(pathname, init);
    const copy = res.clone();
    const head = `${res.status} ${JSON.stringify([...res.headers])}`;
    received.push(
      copy
        .text()
        .then((body) => ({ where: `answer of ${init?.method ?? 'GET'} ${pathname}`, data: `${head}\n${body}` })),
    );
    return res;
  };
  return {
    request,
    post: (pathname, json, key) => request(pathname, { method: 'POST', json, key }),
    answers: () => Promise.all(received),
  };
}

/** POST /api/credentials; fails the test unless it answers 201. */
export async function saveLogin(
  post: (pathname: string, json: unknown) => Promise<Response>,
  body: Json,
): Promise<Json & { id: string; label: string; origins: string[] }> {
  const res = await post('/api/credentials', body);
  const saved = (await res.json()) as Json & { id: string; label: string; origins: string[] };
  expect(res.status, JSON.stringify(saved)).toBe(201);
  return saved;
}

// ---------------------------------------------------------------------------------------------------------------
// Mail and identity providers

export const MAIL_USER = 'inbox';

/** A mailbox of the organization on the Dovecot server, for every *@example.com address; returns its id. */
export async function addMailbox(t: TestServer, dovecot: Dovecot, password: string, key?: string): Promise<string> {
  const res = await t.request('/api/mailboxes', {
    method: 'POST',
    key,
    json: {
      name: 'Team inbox',
      addresses: ['*@example.com'],
      imap: { host: '127.0.0.1', port: dovecot.port, secure: false, username: MAIL_USER, password },
    },
  });
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

/** A code site's mail, delivered into the Dovecot mailbox by IMAP APPEND. */
export const toMailbox =
  (dovecot: Dovecot) =>
  async (m: OutboundMail): Promise<void> =>
    dovecot.deliver(MAIL_USER, await buildMail(m));

export interface GoogleSite {
  idp: IdentityProvider;
  site: RelyingPartySite;
  close(): Promise<void>;
}

/** A Google-style identity provider with these users, and a site that signs in with it (redirect). */
export async function startGoogleSite(users: IdpUser[]): Promise<GoogleSite> {
  const idp = await startIdentityProvider({ style: 'google', users });
  try {
    const site = await startRelyingPartySite({ idp, mode: 'redirect' });
    return {
      idp,
      site,
      close: async () => {
        await site.close();
        await idp.close();
      },
    };
  } catch (err) {
    await idp.close();
    throw err;
  }
}

/** Signs a cookie session out on the site itself (GET /logout), and checks the site no longer takes the cookies. */
export async function signOutOnSite(
  site: { origin: string; protectedUrl: string },
  state: { cookies: { name: string; value: string }[] },
): Promise<void> {
  const cookie = state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  await fetch(`${site.origin}/logout`, { headers: { cookie }, redirect: 'manual' });
  const after = await fetch(site.protectedUrl, { headers: { cookie }, redirect: 'manual' });
  expect(after.status).toBe(302);
}
