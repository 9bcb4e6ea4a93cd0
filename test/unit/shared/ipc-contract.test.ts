// The IPC contract (src/shared/ipc-contract.ts) against the server's OpenAPI document: every channel
// that stands for a route names a method and path the server serves, with the scope it requires, and
// its params, query, body and answer schemas render to exactly what the server documents (same
// component ids, same JSON Schema), so the desktop UI and the API cannot drift apart. Then every
// channel's argument schema and every event's payload schema is tried on a sample and a wrong value.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { httpArgsSchema } from '../../../src/main/core/desktop/http-channel.js';
import { API_ROUTES, successSchema, successStatus } from '../../../src/shared/api/index.js';
import {
  IPC_CONTRACT,
  IPC_EVENTS,
  type Channel,
  type ChannelArgs,
  type ChannelArgsTuple,
  type ChannelName,
  type ChannelResult,
  type HttpChannel,
  type IpcEventName,
  type IpcEventPayload,
} from '../../../src/shared/ipc-contract.js';
import { openApiPath, type Document } from '../../helpers/openapi-doc.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

const channels = Object.entries(IPC_CONTRACT) as [ChannelName, Channel][];
const httpChannels = channels.filter((e): e is [ChannelName, HttpChannel] => e[1].kind === 'http');
const upload = IPC_CONTRACT['uploads:upload'];

let s: TestServer;
let server: Document;
const op = (doc: Document, r: { method: string; path: string }) =>
  doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()];

beforeAll(async () => {
  s = await startTestServer();
  const res = await fetch(`${s.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  server = (await res.json()) as Document;
});
afterAll(() => s?.close());

// Method, path, scope and schemas of an http channel are its route's in the table (src/shared/api), so they cannot
// drift from the server; what is left to check is that each names a route the server really serves.
describe('IPC contract vs GET /api/openapi.json', () => {
  it.each(httpChannels)('%s: its route is served, with the scope the table names', (_name, c) => {
    const route = API_ROUTES[c.route];
    const theirs = op(server, route);
    expect(theirs, `${route.method} ${route.path} is not in the server's document`).toBeDefined();
    expect(theirs['x-required-scope']).toEqual(route.scope);
    const answerHeaders = 'answerHeaders' in route ? route.answerHeaders : undefined;
    if (answerHeaders) {
      const status = String(successStatus(route));
      const documented = Object.keys(theirs.responses[status].headers ?? {}).map((h) => h.toLowerCase());
      expect(documented).toEqual(expect.arrayContaining(Object.keys(answerHeaders.shape)));
    }
  });

  it('the upload channel: presign and the local store’s PUT are served routes', () => {
    for (const name of [upload.presign, upload.put]) {
      const route = API_ROUTES[name];
      expect(op(server, route), `${route.method} ${route.path} is not in the server's document`).toBeDefined();
    }
  });
});

// One accepted and one refused argument per channel; a channel added to the contract without samples
// here does not type-check.
const ARG_SAMPLES: { [C in ChannelName]: { good: ChannelArgs<C>; bad: unknown } } = {
  'app:getInfo': { good: undefined, bad: { verbose: true } },
  'app:openExternal': { good: { url: 'https://example.com/docs' }, bad: { url: 42 } },
  'sessions:list': { good: {}, bad: { body: {} } },
  'sessions:delete': { good: { params: { id: 'ses_1' } }, bad: { params: { id: 'x'.repeat(65) } } },
  'sessions:testLogin': {
    good: {
      body: { domain: 'https://example.com/login', cred: { username: 'a', password: 'b' } },
      headers: { 'x-login-id': 'login-1' },
    },
    bad: {
      body: { domain: 'https://example.com/login', cred: { username: 'a', password: 'b' } },
      headers: { authorization: 'Bearer pk_other' },
    },
  },
  'templates:list': { good: { query: { limit: 10, category: 'text-to-video' } }, bad: { query: { category: 'x' } } },
  'templates:get': { good: { params: { id: 'tpl' } }, bad: { params: {} } },
  'templates:create': {
    good: { body: { title: 'T', category: 'text-to-video', input_variables: [] } },
    bad: { body: { title: 'T', category: 'text-to-video', input_variables: [], extra: 1 } },
  },
  'templates:update': {
    good: { params: { id: 'tpl' }, body: { title: 'T', category: 'text-to-video', input_variables: [] } },
    bad: { body: { title: 'T', category: 'text-to-video', input_variables: [] } },
  },
  'templates:delete': { good: { params: { id: 'tpl' } }, bad: undefined },
  'uploads:pickFile': { good: { kind: 'image' }, bad: { kind: 'document' } },
  'uploads:upload': { good: { file: 'token-1' }, bad: { file: '' } },
  'characters:list': { good: { query: { q: 'ro', limit: 5 } }, bad: { query: { q: 'r' } } },
  'characters:create': {
    good: { body: { name: 'Robin', reference_image_keys: ['uploads/o/k/a.png'] } },
    bad: { body: { name: 'Robin', reference_image_keys: [] } },
  },
  'generate:fromTemplate': {
    good: { params: { id: 'tpl' }, body: { variables: { scene: 'x' } } },
    bad: { params: { id: 'tpl' }, body: { variables: {}, num_videos: 9 } },
  },
  'generations:list': { good: { query: { status: 'generating' } }, bad: { query: { status: 'done' } } },
  'generations:get': { good: { params: { id: 'gen' } }, bad: { params: { id: '' } } },
  'generations:cancel': { good: { params: { id: 'gen' } }, bad: { id: 'gen' } },
  'generations:delete': { good: { params: { id: 'gen' } }, bad: { id: 'gen' } },
  'credits:get': { good: {}, bad: { query: { org: 'x' } } },
  // Settings
  'login:methods': { good: {}, bad: { query: { all: true } } },
  'mailboxes:list': { good: {}, bad: { params: { id: 'x' } } },
  'mailboxes:create': {
    good: {
      body: {
        addresses: ['ada@example.com'],
        imap: { host: 'imap.example.com', port: 993, username: 'ada', password: 'pw' },
      },
    },
    bad: { body: { addresses: [], imap: { host: 'imap://x', port: 0, username: '', password: '' } } },
  },
  'mailboxes:delete': { good: { params: { id: 'mbx_1' } }, bad: { params: { id: '' } } },
  'mailboxes:test': { good: { params: { id: 'mbx_1' } }, bad: {} },
  'webhooks:getSecret': { good: {}, bad: { body: {} } },
  'webhooks:rotateSecret': { good: {}, bad: { body: { secret: 'mine' } } },
  'app:apiStatus': { good: undefined, bad: { url: 'http://127.0.0.1:1' } },
  'app:copyText': { good: { text: 'pk_x' }, bad: { text: '' } },
  'app:openDataFolder': { good: undefined, bad: { path: '/etc' } },
  'app:openApiReference': { good: undefined, bad: { url: 'http://127.0.0.1:4780/api/credentials' } },
  'settings:get': { good: undefined, bad: {} },
  'settings:update': {
    good: { server: { port: 4800 }, jobs: { renderConcurrency: null } },
    bad: { server: { port: 70000 } },
  },
  'settings:setTheme': { good: { theme: 'dark' }, bad: { theme: 'sepia' } },
  'settings:testStorage': { good: { bucket: 'b', endpoint: 'http://127.0.0.1:9000' }, bad: { bucket: '' } },
  'keys:list': { good: { orgId: 'org_1' }, bad: {} },
  'keys:create': { good: { orgId: 'org_1', scopes: ['login:write'] }, bad: { orgId: 'org_1', scopes: ['root'] } },
  'keys:revoke': { good: { id: 'key_1' }, bad: { id: 1 } },
  'orgs:list': { good: undefined, bad: { all: true } },
  'orgs:create': { good: { name: 'Acme Inc.' }, bad: { name: 'a/b' } },
  'orgs:credits': { good: { orgId: 'org_1' }, bad: undefined },
  'orgs:useInWindow': { good: { orgId: 'org_1' }, bad: { orgId: 1 } },
  'orgs:setBrowserProfiles': { good: { orgId: 'org_1', allowed: true }, bad: { orgId: 'org_1', allowed: 'yes' } },
  'orgs:grantCredits': { good: { orgId: 'org_1', amount: 100 }, bad: { orgId: 'org_1', amount: 0.5 } },
  // Results, exports and media
  'sessions:validate': { good: { params: { id: 'ses_1' } }, bad: { params: {} } },
  'sessions:cancelLogin': { good: { params: { id: 'login-1' } }, bad: { params: { id: '' } } },
  'uploads:list': { good: { query: { kind: 'image', limit: 20 } }, bad: { query: { kind: 'document' } } },
  'uploads:delete': { good: { params: { key: 'uploads/org_1/abc/a.png' } }, bad: { params: { key: '' } } },
  'uploads:pickPasted': {
    good: { content_type: 'image/png', data: 'iVBORw0KGgo=' },
    bad: { content_type: 'image/svg+xml', data: 'PHN2Zz4=' },
  },
  'uploads:pickDropped': { good: { path: '/home/ada/photo.png' }, bad: { path: '' } },
  'characters:update': {
    good: { params: { id: 'chr_1' }, body: { name: 'Robin' } },
    bad: { params: { id: 'chr_1' }, body: { visibility: 'public' } },
  },
  'characters:delete': { good: { params: { id: 'chr_1' } }, bad: {} },
  'exports:saveText': {
    good: { defaultName: 'state.json', text: '{}' },
    bad: { defaultName: '../../.bashrc', text: 'x' },
  },
  'generations:saveVideo': { good: { id: 'gen_1' }, bad: { id: '' } },
  'generations:showInFolder': { good: { id: 'gen_1' }, bad: { path: '/etc' } },
  // Saved logins
  'credentials:list': { good: {}, bad: { query: { q: 'acme' } } },
  'credentials:get': { good: { params: { id: 'Acme admin' } }, bad: { params: { id: '' } } },
  'credentials:create': {
    good: {
      body: {
        label: 'Acme admin',
        loginUrl: 'https://acme.example.com/login',
        username: 'ada',
        password: 'pw',
        shareWith: ['key_1'],
      },
    },
    bad: { body: { label: '  ', loginUrl: 'https://acme.example.com/login' } },
  },
  'credentials:update': {
    good: { params: { id: 'cred_1' }, body: { password: null, origins: ['https://acme.example.com/x'] } },
    bad: { params: { id: 'cred_1' }, body: { origins: ['ftp://acme.example.com'] } },
  },
  'credentials:updateConfirmed': {
    good: { params: { id: 'cred_1' }, body: { loginUrl: 'https://sso.example.com/login' } },
    bad: { params: { id: 'cred_1' }, body: { loginUrl: 'https://sso.example.com/login' }, confirmed: true },
  },
  'credentials:delete': { good: { params: { id: 'cred_1' } }, bad: { params: {} } },
  'credentials:uses': { good: { params: { id: 'cred_1' } }, bad: { params: { id: 'x'.repeat(201) } } },
  'credentials:import': {
    good: { body: { format: 'chrome', content: 'name,url,username,password\n', dryRun: true } },
    bad: { body: { format: 'lastpass', content: 'x' } },
  },
  'credentials:reveal': {
    good: { id: 'cred_1', secret: { additionalField: 'pin' } },
    bad: { id: 'cred_1', secret: 'username' },
  },
  'credentials:copySecret': { good: { id: 'cred_1', secret: 'password' }, bad: { id: 'cred_1' } },
  'credentials:exportPasskeys': { good: { id: 'cred_1' }, bad: { id: '' } },
  'credentials:test': {
    good: { id: 'cred_1', loginId: 'ui-1' },
    bad: { id: 'cred_1', loginId: 'ui-1', keyId: 'key_1' },
  },
  'browserProfiles:list': { good: undefined, bad: { roots: ['/home'] } },
  'browserProfiles:import': {
    good: { profile: 'bp_1', sites: ['https://app.example.com/dashboard'] },
    bad: { profile: 'bp_1', sites: ['https://app.example.com'], checkUrl: 'https://app.example.com/me' },
  },
  'providers:status': { good: undefined, bad: { name: 'fal' } },
  'providers:setComfyAddress': { good: { address: 'http://127.0.0.1:8188' }, bad: { address: 'ftp://x' } },
  'templates:quote': { good: { params: { id: 't' }, body: { variables: {} } }, bad: { params: { id: 't' } } },
  'generations:quote': { good: { body: { prompt: 'a fox', modelName: 'studio-v1' } }, bad: { body: {} } },
  'batches:cancel': { good: { params: { id: 'b' } }, bad: {} },
  'providers:setKey': { good: { name: 'fal', key: 'k-123' }, bad: { name: 'fal', key: 'two words' } },
  'providers:check': { good: { name: 'replicate' }, bad: { name: 'comfyui' } },
  'backup:create': { good: { passphrase: 'twelve chars!', media: true }, bad: { passphrase: 'short', media: true } },
  'backup:schedule': { good: undefined, bad: { folder: '/etc' } },
  'backup:chooseFolder': { good: undefined, bad: { folder: '/etc' } },
  'backup:setSchedule': {
    good: { everyHours: 24, keep: 7, media: false, passphrase: null },
    bad: { everyHours: 24, keep: 7, media: false, passphrase: null, folder: '/etc' },
  },
  'backup:clearSchedule': { good: undefined, bad: {} },
  'backup:inspect': { good: undefined, bad: { file: '/etc/passwd' } },
  'backup:restore': { good: { passphrase: 'a passphrase' }, bad: { passphrase: 'p', dataDir: '/tmp/x' } },
  'backup:openRestored': { good: undefined, bad: { dataDir: '/etc' } },
  'autostart:get': { good: undefined, bad: { file: '/etc/xdg/autostart/x.desktop' } },
  'autostart:set': { good: { on: true }, bad: { on: true, exec: '/bin/sh' } },
  // Updates: the feed address is config.json's alone; the page sends none.
  'updates:get': { good: undefined, bad: { feedUrl: 'http://evil.example/' } },
  'updates:set': {
    good: { policy: 'ask', channel: 'beta' },
    bad: { policy: 'ask', channel: 'stable', feedUrl: 'http://evil.example/' },
  },
  'updates:check': { good: undefined, bad: { feedUrl: 'http://evil.example/' } },
  'updates:download': { good: undefined, bad: { url: 'http://evil.example/x.exe' } },
  'updates:install': { good: undefined, bad: { file: '/tmp/x.exe' } },
  // Crash reports: the page never names a folder.
  'crashes:get': { good: undefined, bad: { folder: '/etc' } },
  'crashes:openFolder': { good: undefined, bad: { path: '/etc' } },
};

const argsSchema = (c: Channel): z.ZodType => (c.kind === 'http' ? httpArgsSchema(c) : c.args);

const EVENT_SAMPLES: { [E in IpcEventName]: { good: IpcEventPayload<E>; bad: unknown } } = {
  'login:step': { good: { loginId: 'l1', step: 'filled the password', elapsedMs: 812 }, bad: { step: 'x' } },
  'login:needs-person': {
    good: {
      loginId: 'l1',
      reason: 'captcha_blocked',
      site: 'example.com',
      takeoverUrl: 'http://127.0.0.1:4800/live/l1#tok',
    },
    bad: { loginId: 'l1', reason: 'captcha_blocked', site: 'example.com', takeoverUrl: 'javascript:alert(1)' },
  },
  'login:finished': { good: { loginId: 'l1', status: 'succeeded' }, bad: { loginId: 'l1', status: 'running' } },
  'generation:progress': {
    good: { id: 'g1', status: 'generating', progress: 40, queuePosition: 2 },
    bad: { id: 'g1', status: 'generating', progress: 140 },
  },
  'generation:finished': { good: { id: 'g1', status: 'completed' }, bad: { id: 'g1', status: 'generating' } },
  'upload:progress': { good: { id: 't1', loaded: 10, total: 20 }, bad: { loaded: -1, total: 20 } },
};

describe('contract schemas on samples', () => {
  it.each(channels)('%s: its argument schema takes a sample and refuses a wrong one', (name, c) => {
    const sample = ARG_SAMPLES[name];
    expect(argsSchema(c).safeParse(sample.good).success).toBe(true);
    expect(argsSchema(c).safeParse(sample.bad).success).toBe(false);
  });

  it('every channel and every event has samples', () => {
    expect(Object.keys(ARG_SAMPLES).sort()).toEqual(Object.keys(IPC_CONTRACT).sort());
    expect(Object.keys(EVENT_SAMPLES).sort()).toEqual(Object.keys(IPC_EVENTS).sort());
  });

  it.each(Object.keys(IPC_EVENTS) as IpcEventName[])('event %s: payload schema', (event) => {
    expect(IPC_EVENTS[event].safeParse(EVENT_SAMPLES[event].good)).toMatchObject({ success: true });
    expect(IPC_EVENTS[event].safeParse(EVENT_SAMPLES[event].bad).success).toBe(false);
  });

  it('answers parse with the shared schemas: the login answer with its headers, a 204 with none', () => {
    const login = API_ROUTES[IPC_CONTRACT['sessions:testLogin'].route];
    const schema = successSchema(login)!;
    expect(schema.safeParse({ cookies: [], origins: [] }).success).toBe(true);
    expect(schema.safeParse({ cookies: [{ name: 'sid' }], origins: [] }).success).toBe(false);
    expect(login.answerHeaders.safeParse({ 'x-session-cache': 'hit', 'x-session-id': 's1' }).success).toBe(true);
    expect(login.answerHeaders.safeParse({ 'x-session-cache': 'maybe', 'x-session-id': 's1' }).success).toBe(false);
    const deleted = API_ROUTES[IPC_CONTRACT['sessions:delete'].route];
    expect(successStatus(deleted)).toBe(204);
    expect(successSchema(deleted)).toBeUndefined();
  });

  it('types: the renderer’s invoke takes and returns what the schemas say (checked by tsc)', () => {
    expectTypeOf<[]>().toMatchTypeOf<ChannelArgsTuple<'credits:get'>>();
    expectTypeOf<[]>().not.toMatchTypeOf<ChannelArgsTuple<'templates:get'>>();
    expectTypeOf<ChannelArgs<'templates:get'>>().toEqualTypeOf<{ params: { id: string } }>();
    expectTypeOf<ChannelArgs<'uploads:upload'>>().toEqualTypeOf<{ file: string }>();
    expectTypeOf<ChannelResult<'templates:get'>['title']>().toEqualTypeOf<string>();
    expectTypeOf<ChannelResult<'sessions:delete'>>().toEqualTypeOf<null>();
    expectTypeOf<ChannelResult<'sessions:testLogin'>['headers']['x-session-cache']>().toEqualTypeOf<'hit' | 'miss'>();
    expectTypeOf<ChannelResult<'uploads:pickFile'>>().toEqualTypeOf<{
      token: string;
      name: string;
      size: number;
      content_type: string;
    } | null>();
  });
});
