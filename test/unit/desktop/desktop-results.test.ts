// The desktop's results and media channels (src/main/core/desktop/results-channels.ts) through the real
// IPC dispatcher and a real core in process: request headers a channel declares (X-Login-Id) and no
// others, saving a text or a video where the "save dialog" says, the video shown in its folder, pasted
// images kept only until uploaded, dropped files by path; the preload-only channel; the notice wording.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatedSender } from '../../../src/main/core/desktop/desktop-events.js';
import { resolveDesktopKey } from '../../../src/main/core/desktop/desktop-key.js';
import { generationNotice } from '../../../src/main/core/desktop/generation-notice.js';
import { fail } from '../../../src/main/core/desktop/http-channel.js';
import { createInProcessApi, type ApiRequest, type CoreApi } from '../../../src/main/core/http/in-process-api.js';
import {
  createIpcDispatcher,
  type IpcDispatch,
  type LocalHandlers,
} from '../../../src/main/core/desktop/ipc-dispatcher.js';
import { PickedFiles } from '../../../src/main/core/desktop/picked-files.js';
import { resultsChannels } from '../../../src/main/core/desktop/results-channels.js';
import { CHANNEL_NAMES, IPC_CONTRACT, isPageChannel } from '../../../src/shared/ipc-contract.js';
import { media } from '../../helpers/media-fixtures.js';
import { startTestServer, tempDir, type TestServer } from '../../helpers/test-server.js';

let t: TestServer;
let api: CoreApi;
const dir = tempDir('agent-studio-desktop-results-');

beforeAll(async () => {
  t = await startTestServer({}, { credits: 100 });
  const desktop = await resolveDesktopKey(t.core);
  api = createInProcessApi({ app: t.server.app, key: desktop.key, host: new URL(t.url).host });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function setup(opts: { api?: CoreApi; savePath?: () => string | null } = {}) {
  const files = new PickedFiles();
  const shown: string[] = [];
  const pasteDir = fs.mkdtempSync(path.join(dir, 'paste-'));
  const unanswered = Object.fromEntries(
    CHANNEL_NAMES.filter((c) => IPC_CONTRACT[c].kind === 'local').map((c) => [c, async () => fail('x', c)]),
  ) as unknown as LocalHandlers;
  const dispatch = createIpcDispatcher({
    api: opts.api ?? api,
    files,
    emit: validatedSender(() => {}),
    local: {
      ...unanswered,
      ...resultsChannels({
        api: opts.api ?? api,
        files,
        blobs: () => t.core.video.blobs,
        pasteDir,
        os: {
          chooseSavePath: async () => opts.savePath?.() ?? null,
          showItemInFolder: (file) => void shown.push(file),
        },
      }),
    },
  });
  return { dispatch, files, shown, pasteDir };
}

const value = async <T>(dispatch: IpcDispatch, channel: string, args?: unknown): Promise<T> => {
  const res = await dispatch(channel, args);
  if (!res.ok) throw new Error(`${channel}: ${res.error.code} ${res.error.message}`);
  return res.value as T;
};

describe('request headers of an http channel', () => {
  it('sends the X-Login-Id the channel declares, and refuses any other header before a request', async () => {
    const requests: ApiRequest[] = [];
    const spy: CoreApi = {
      request: async (req) => (requests.push(req), { status: 400, headers: {}, body: '{"error":"X","message":"x"}' }),
      serves: () => false,
    };
    const { dispatch } = setup({ api: spy });
    const body = { domain: 'https://example.com/login', cred: { username: 'a', password: 'b' } };
    await dispatch('sessions:testLogin', { body, headers: { 'x-login-id': 'ui-1' } });
    expect(requests[0].headers).toEqual({ 'x-login-id': 'ui-1', 'content-type': 'application/json' });
    for (const headers of [{ authorization: 'Bearer pk_other' }, { 'x-login-id': 'bad id!' }]) {
      expect(await dispatch('sessions:testLogin', { body, headers })).toMatchObject({
        ok: false,
        error: { code: 'validation_error' },
      });
    }
    // A channel that declares no headers takes none.
    expect(await dispatch('credits:get', { headers: { 'x-login-id': 'a' } })).toMatchObject({ ok: false });
    expect(requests).toHaveLength(1);
  });
});

describe('saving and showing', () => {
  it('writes a text where the save dialog says (owner-only), or nothing when it is cancelled', async () => {
    const target = path.join(dir, 'state.json');
    let answer: string | null = target;
    const { dispatch } = setup({ savePath: () => answer });
    expect(await value(dispatch, 'exports:saveText', { defaultName: 'state.json', text: '{"cookies":[]}' })).toEqual({
      saved: true,
      name: 'state.json',
    });
    expect(fs.readFileSync(target, 'utf8')).toBe('{"cookies":[]}');
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    answer = null;
    expect(await value(dispatch, 'exports:saveText', { defaultName: 'x.json', text: 'x' })).toEqual({
      saved: false,
      name: null,
    });
    answer = path.join(dir, 'no-such-folder', 'x.json');
    expect(await dispatch('exports:saveText', { defaultName: 'x.json', text: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'file_unwritable', message: /x\.json: ENOENT/ },
    });
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('saves a completed video and shows the saved copy, else the stored file; refuses one without a video', async () => {
    const gen = await value<{ generations: { generation_id: string }[] }>(setup().dispatch, 'generate:fromTemplate', {
      params: { id: 'text-to-video-cinematic' },
      body: { variables: { scene: 'A lighthouse on a cliff at dusk' } },
    });
    const id = gen.generations[0].generation_id;
    const target = path.join(dir, 'video.mp4');
    const { dispatch, shown } = setup({ savePath: () => target });
    expect(await dispatch('generations:saveVideo', { id })).toMatchObject({
      ok: false,
      error: { code: 'not_available', message: /it is generating/ },
    });
    const bytes = media.mp4();
    await t.core.video.blobs.put(`generations/${id}.mp4`, bytes, 'video/mp4');
    await t.core.video.blobs.put(`generations/${id}.jpg`, media.jpeg(), 'image/jpeg');
    t.core.video.generations.complete(id, { videoKey: `generations/${id}.mp4`, thumbnailKey: `generations/${id}.jpg` });

    expect(await value(dispatch, 'generations:showInFolder', { id })).toEqual({ shown: true });
    expect(shown).toEqual([path.join(t.dataDir, 'blobs', 'generations', `${id}.mp4`)]);
    expect(await value(dispatch, 'generations:saveVideo', { id })).toEqual({ saved: true, name: 'video.mp4' });
    expect(fs.readFileSync(target)).toEqual(bytes);
    await value(dispatch, 'generations:showInFolder', { id });
    expect(shown.at(-1)).toBe(target);
    expect(await dispatch('generations:saveVideo', { id: 'gen_nobody' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('dropped and pasted files', () => {
  it('keeps a pasted image only until it is uploaded; a dropped file is taken by its path', async () => {
    const { dispatch, pasteDir } = setup();
    const picked = await value<{ token: string; name: string; content_type: string; size: number }>(
      dispatch,
      'uploads:pickPasted',
      { content_type: 'image/png', data: media.png(2048).toString('base64') },
    );
    expect(picked).toMatchObject({ name: 'pasted image.png', content_type: 'image/png', size: 2048 });
    expect(JSON.stringify(picked)).not.toContain(pasteDir);
    const uploaded = await value<{ s3_key: string }>(dispatch, 'uploads:upload', { file: picked.token });
    expect(uploaded.s3_key).toMatch(/^uploads\/.+\.png$/);
    // The handle is used: its temp file and folder are gone.
    await expect.poll(() => fs.readdirSync(pasteDir)).toEqual([]);

    expect(await dispatch('uploads:pickPasted', { content_type: 'image/svg+xml', data: 'PHN2Zz4=' })).toMatchObject({
      ok: false,
      error: { code: 'validation_error' },
    });
    const file = path.join(dir, 'dropped.png');
    fs.writeFileSync(file, media.png());
    expect(await value(dispatch, 'uploads:pickDropped', { path: file })).toMatchObject({ name: 'dropped.png' });
    expect(fs.existsSync(file)).toBe(true);
    expect(await dispatch('uploads:pickDropped', { path: dir })).toMatchObject({
      ok: false,
      error: { code: 'validation_error' },
    });
  });

  it('the dropped-file channel is the preload’s own: the page may not invoke it', () => {
    expect(isPageChannel('uploads:pickDropped')).toBe(false);
    expect(isPageChannel('uploads:pickPasted')).toBe(true);
    expect(isPageChannel('no:such')).toBe(false);
  });
});

describe('generation notices', () => {
  const g = { id: 'gen_1', templateTitle: 'Cinematic scene', error: null };
  it('tells of a finished or failed video only when the window is not in front and notices are on', () => {
    expect(generationNotice({ ...g, status: 'completed' }, { windowFocused: false, enabled: true })).toEqual({
      title: 'Video ready',
      body: 'Cinematic scene is ready to play.',
    });
    expect(
      generationNotice({ ...g, status: 'failed', error: 'provider down' }, { windowFocused: false, enabled: true }),
    ).toEqual({ title: 'Video failed', body: 'Cinematic scene: provider down (credits refunded)' });
    expect(generationNotice({ ...g, status: 'completed' }, { windowFocused: true, enabled: true })).toBeNull();
    expect(generationNotice({ ...g, status: 'completed' }, { windowFocused: false, enabled: false })).toBeNull();
    expect(generationNotice({ ...g, status: 'canceled' }, { windowFocused: false, enabled: true })).toBeNull();
    const long = generationNotice(
      { ...g, templateTitle: null, status: 'failed', error: 'x'.repeat(500) },
      { windowFocused: false, enabled: true },
    );
    expect(long?.body.length).toBe(200);
    expect(long?.body.startsWith('Generation gen_1: x')).toBe(true);
  });
});
