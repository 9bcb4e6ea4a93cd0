// The desktop IPC dispatcher (src/main/core/desktop) against a real core: every http channel of the
// contract answered by the real API in process with the desktop key and parsed with the shared
// schemas, arguments refused before any request, off-contract answers refused, picked-file uploads
// with progress events, and the core's bus events forwarded for one organization only.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardCoreEvents, validatedSender } from '../../../src/main/core/desktop/desktop-events.js';
import { resolveDesktopKey } from '../../../src/main/core/desktop/desktop-key.js';
import { createInProcessApi, type ApiRequest, type CoreApi } from '../../../src/main/core/http/in-process-api.js';
import {
  createIpcDispatcher,
  type IpcDispatch,
  type LocalHandlers,
} from '../../../src/main/core/desktop/ipc-dispatcher.js';
import { PickedFiles } from '../../../src/main/core/desktop/picked-files.js';
import { CHANNEL_NAMES, IPC_CONTRACT, type IpcEventName } from '../../../src/shared/ipc-contract.js';
import { fail } from '../../../src/main/core/desktop/http-channel.js';
import { media } from '../../helpers/media-fixtures.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';
import { testAppInfo } from '../../e2e/support/app-info.js';

let t: TestServer;
let api: CoreApi;
let orgId: string;
const filesDir = tempDir('agent-studio-desktop-ipc-');

function dispatcher(opts: { api?: CoreApi; local?: Partial<LocalHandlers> } = {}) {
  const sent: { event: IpcEventName; payload: unknown }[] = [];
  const files = new PickedFiles();
  const dispatch = createIpcDispatcher({
    api: opts.api ?? api,
    files,
    emit: validatedSender((event, payload) => sent.push({ event, payload })),
    local: {
      // Main-only channels this file does not exercise answer a clear failure.
      ...(Object.fromEntries(
        CHANNEL_NAMES.filter((c) => IPC_CONTRACT[c].kind === 'local').map((c) => [
          c,
          async () => fail('not_in_test', `${c} is not answered here.`),
        ]),
      ) as unknown as LocalHandlers),
      'app:getInfo': async () => ({ ok: true, value: testAppInfo(t) }),
      'app:openExternal': async () => ({ ok: true, value: { opened: false } }),
      'uploads:pickFile': async () => ({ ok: true, value: null }),
      ...opts.local,
    },
  });
  return { dispatch, files, sent };
}

/** The real API, counting what reaches it. */
function counted(inner: CoreApi): CoreApi & { requests: ApiRequest[] } {
  const requests: ApiRequest[] = [];
  return { requests, request: (req) => (requests.push(req), inner.request(req)), serves: (u) => inner.serves(u) };
}

const value = async <T>(dispatch: IpcDispatch, channel: string, args?: unknown): Promise<T> => {
  const res = await dispatch(channel, args);
  if (!res.ok) throw new Error(`${channel}: ${res.error.code} ${res.error.message}`);
  return res.value as T;
};

beforeAll(async () => {
  t = await startTestServer({}, { credits: 1000 });
  const desktop = await resolveDesktopKey(t.core);
  orgId = desktop.orgId;
  api = createInProcessApi({ app: t.server.app, key: desktop.key, host: new URL(t.url).host });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

describe('desktop IPC dispatcher over the in-process API', () => {
  it('answers the http channels from the real API, parsed with the shared schemas', async () => {
    const { dispatch } = dispatcher();
    expect(await value(dispatch, 'credits:get')).toMatchObject({ org_id: orgId, balance: 1000 });
    const page = await value<{ data: unknown[]; pagination: { limit: number } }>(dispatch, 'templates:list', {
      query: { limit: 2 },
    });
    expect(page.data).toHaveLength(2);
    expect(page.pagination.limit).toBe(2);

    const body = {
      title: 'Desktop made',
      category: 'text-to-video',
      prompt_template: 'A shot of {{subject}}',
      input_variables: [{ key: 'subject', label: 'Subject', type: 'text' }],
    };
    const created = await value<{ id: string; builtin: boolean }>(dispatch, 'templates:create', { body });
    expect(created.builtin).toBe(false);
    const params = { id: created.id };
    expect(await value(dispatch, 'templates:get', { params })).toMatchObject({ title: 'Desktop made' });
    const updated = await value(dispatch, 'templates:update', { params, body: { ...body, title: 'Renamed' } });
    expect(updated).toMatchObject({ id: created.id, title: 'Renamed' });
    expect(await value(dispatch, 'templates:delete', { params })).toEqual({ id: created.id, deleted: true });

    const generated = await value<{ generations: { generation_id: string }[] }>(dispatch, 'generate:fromTemplate', {
      params: { id: 'text-to-video-cinematic' },
      body: { variables: { scene: 'A lighthouse on a cliff at dusk' } },
    });
    const id = generated.generations[0].generation_id;
    expect(await value(dispatch, 'generations:get', { params: { id } })).toMatchObject({ id, status: 'generating' });
    const listed = await value<{ data: { id: string }[] }>(dispatch, 'generations:list', {
      query: { status: 'generating' },
    });
    expect(listed.data.map((g) => g.id)).toContain(id);
    expect(await value(dispatch, 'generations:cancel', { params: { id } })).toMatchObject({ status: 'canceled' });

    expect(await value(dispatch, 'sessions:list')).toEqual({ data: [] });
    expect(await dispatch('sessions:delete', { params: { id: 'nope' } })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', details: { status: 404 } },
    });
    expect(await value(dispatch, 'characters:list', { query: { q: 'zz-nobody' } })).toMatchObject({ data: [] });
  });

  it('refuses a bad argument, a stray part or an unknown channel before any request', async () => {
    const spy = counted(api);
    const { dispatch } = dispatcher({ api: spy });
    const bad = [
      ['templates:get', { params: { id: '' } }],
      ['templates:get', undefined],
      ['characters:list', { query: { q: 'a' } }],
      ['credits:get', { body: { org_id: 'other' } }],
      ['templates:create', { body: { title: 'x' } }],
      ['uploads:upload', { file: '' }],
      ['app:openExternal', { url: 1 }],
    ] as const;
    for (const [channel, args] of bad) {
      expect(await dispatch(channel, args), channel).toMatchObject({ ok: false, error: { code: 'validation_error' } });
    }
    expect(await dispatch('keys:exportAll', {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(await dispatch({ toString: () => 'x' }, {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    });
    expect(spy.requests).toEqual([]);
    // The route's path parameter is percent-encoded: it cannot reach another route.
    await dispatch('templates:get', { params: { id: '../../api/credits' } });
    expect(spy.requests.map((r) => r.url)).toEqual(['/api/templates/..%2F..%2Fapi%2Fcredits']);
  });

  it('refuses an answer off the shared schema (invalid_response) and keeps the API’s error codes', async () => {
    const answers = [
      { status: 200, body: '{"data":"not a list"}' },
      { status: 200, body: '<html>' },
      { status: 502, body: 'Bad gateway' },
      { status: 409, body: '{"error":"conflict","message":"Not generating."}' },
    ];
    const standIn: CoreApi = { request: async () => ({ headers: {}, ...answers.shift()! }), serves: () => false };
    const { dispatch } = dispatcher({ api: standIn });
    expect(await dispatch('templates:list')).toMatchObject({
      ok: false,
      error: { code: 'invalid_response', message: /data: .*expected array/ },
    });
    expect(await dispatch('credits:get')).toMatchObject({ ok: false, error: { code: 'invalid_response' } });
    expect(await dispatch('credits:get')).toMatchObject({ ok: false, error: { code: 'http_502' } });
    expect(await dispatch('generations:cancel', { params: { id: 'g' } })).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'Not generating.', details: { status: 409 } },
    });
  });

  it('uploads a picked file (presign, in-process PUT) with progress; a handle is single use', async () => {
    const file = path.join(filesDir, 'face.png');
    const size = 256 * 1024;
    fs.writeFileSync(file, media.png(size));
    const { dispatch, files, sent } = dispatcher();
    const picked = await files.pick(file);
    if (!picked.ok || !picked.value) throw new Error('pick failed');
    expect(picked.value).toEqual({ token: expect.any(String), name: 'face.png', size, content_type: 'image/png' });
    expect(picked.value).not.toHaveProperty('path');
    const token = picked.value.token;

    const stored = await value<{ s3_key: string }>(dispatch, 'uploads:upload', { file: token });
    expect(stored).toMatchObject({ name: 'face.png', size, content_type: 'image/png' });
    expect(stored.s3_key).toMatch(new RegExp(`^uploads/${orgId}/.+/face\\.png$`));
    const progress = sent.filter((e) => e.event === 'upload:progress').map((e) => e.payload);
    expect(progress[0]).toEqual({ id: token, loaded: 0, total: size });
    expect(progress.at(-1)).toEqual({ id: token, loaded: size, total: size });
    expect(await dispatch('uploads:upload', { file: token })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });

    // The stored key is usable by the next call, as an agent's would be.
    const character = await value(dispatch, 'characters:create', {
      body: { name: 'Face', reference_image_keys: [stored.s3_key] },
    });
    expect(character).toMatchObject({ name: 'Face', visibility: 'private' });

    const gone = path.join(filesDir, 'gone.png');
    fs.writeFileSync(gone, media.png(1024));
    const second = await files.pick(gone);
    fs.rmSync(gone);
    if (!second.ok || !second.value) throw new Error('pick failed');
    expect(await dispatch('uploads:upload', { file: second.value.token })).toMatchObject({
      ok: false,
      error: { code: 'file_unreadable', message: 'Cannot read gone.png: ENOENT' },
    });
    expect(await files.pick(filesDir)).toMatchObject({ ok: false, error: { code: 'validation_error' } });
  });

  it('checks main’s own answers against the contract and never throws across IPC', async () => {
    const { dispatch } = dispatcher({
      local: {
        'app:getInfo': async () => ({ ok: true, value: { version: 1 } as never }),
        'uploads:pickFile': async () => {
          throw new Error('dialog crashed');
        },
      },
    });
    expect(await dispatch('app:getInfo')).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    expect(await dispatch('uploads:pickFile', { kind: 'image' })).toMatchObject({
      ok: false,
      error: { code: 'internal_error', message: /dialog crashed/ },
    });
    expect(await dispatch('app:openExternal', { url: 'https://example.com' })).toEqual({
      ok: true,
      value: { opened: false },
    });
  });
});

describe('desktop events', () => {
  it('forwards one organization’s bus events as contract events, and stops when unsubscribed', () => {
    const sent: { event: string; payload: unknown }[] = [];
    const stop = forwardCoreEvents(
      t.core.events,
      orgId,
      validatedSender((event, payload) => sent.push({ event, payload })),
    );
    const bus = t.core.events;
    bus.emit('generation.progress', { orgId: 'org_other', generationId: 'g0', progress: 10, queuePosition: null });
    bus.emit('generation.progress', { orgId, generationId: 'g1', progress: 0, queuePosition: 3 });
    bus.emit('generation.progress', { orgId, generationId: 'g1', progress: 55, queuePosition: null });
    bus.emit('generation.status', { orgId, generationId: 'g1', status: 'generating', error: null });
    bus.emit('generation.status', { orgId, generationId: 'g1', status: 'failed', error: 'provider down' });
    bus.emit('login.step', { orgId, loginId: 'l1', step: 'found the sign-in form', elapsedMs: 120 });
    // Off-contract: a negative elapsed time is dropped, not sent.
    bus.emit('login.step', { orgId, loginId: 'l1', step: 'x', elapsedMs: -1 });
    const live = 'http://127.0.0.1:4800/live/l1#tok';
    bus.emit('login.needs_person', {
      orgId: 'org_other',
      loginId: 'l0',
      reason: 'mfa_required',
      takeoverUrl: live,
      site: 'a',
    });
    bus.emit('login.needs_person', {
      orgId,
      loginId: 'l1',
      reason: 'captcha_blocked',
      takeoverUrl: live,
      site: 'shop.test',
    });
    bus.emit('login.finished', { orgId: 'org_other', loginId: 'l0', status: 'failed', sessionId: null, error: 'X' });
    bus.emit('login.finished', { orgId, loginId: 'l1', status: 'succeeded', sessionId: 's1', error: null });
    stop();
    bus.emit('generation.status', { orgId, generationId: 'g2', status: 'completed', error: null });
    expect(sent).toEqual([
      { event: 'generation:progress', payload: { id: 'g1', status: 'generating', progress: 0, queuePosition: 3 } },
      { event: 'generation:progress', payload: { id: 'g1', status: 'generating', progress: 55 } },
      { event: 'generation:finished', payload: { id: 'g1', status: 'failed' } },
      { event: 'login:step', payload: { loginId: 'l1', step: 'found the sign-in form', elapsedMs: 120 } },
      {
        event: 'login:needs-person',
        payload: { loginId: 'l1', reason: 'captcha_blocked', site: 'shop.test', takeoverUrl: live },
      },
      { event: 'login:finished', payload: { loginId: 'l1', status: 'succeeded' } },
    ]);
  });
});
