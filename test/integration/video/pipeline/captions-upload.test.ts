import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CAPTION_BYTES, parseCaptions } from '../../../../src/shared/captions-format.js';
import { resolutionSize } from '../../../../src/main/core/video/pipeline/resolutions.js';
import { bands, changed, cueShown, FPS } from '../../../helpers/caption-frames.js';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { call, finishedGeneration, generate, upload } from '../../../helpers/video-api.js';

// Captions from a stored upload: an .srt or .vtt is presigned and PUT like any media file, checked as captions when
// it arrives, and its storage key is then a captions variable's value — used exactly as pasted text would be.

const root = tempDir('agent-studio-captions-upload-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const SRT = `1
00:00:00,500 --> 00:00:01,250
The first caption, long enough to wrap onto a second line

2
00:00:02,000 --> 00:00:02,750
Second
`;
const VTT = `WEBVTT

00:00.250 --> 00:01.000
<v Ann>Hello &amp; welcome</v>

00:01.500 --> 00:02.500
Bye
`;
const DURATION_SEC = 3;

const captionedTemplate = {
  title: 'Captioned',
  category: 'text-to-video',
  duration_sec: DURATION_SEC,
  resolution: '480p',
  input_variables: [
    { key: 'scene', label: 'Scene', type: 'text', required: true },
    { key: 'subs', label: 'Captions', type: 'captions', required: false },
  ],
  prompt_template: '{{scene}}',
};
/** The same with an image: a captions upload must not pass for it. */
const photoTemplate = {
  ...captionedTemplate,
  category: 'image-to-video',
  input_variables: [...captionedTemplate.input_variables, { key: 'photo', label: 'Photo', type: 'image' }],
};

async function createTemplate(s: TestServer, body: object = captionedTemplate): Promise<string> {
  const t = await call(s, '/api/templates', { method: 'POST', json: body });
  expect([200, 201], JSON.stringify(t.body)).toContain(t.status);
  return t.body.id as string;
}

/** Presign + PUT of raw bytes: the PUT's answer (upload() of video-api throws on a refusal). */
async function putUpload(s: TestServer, bytes: Buffer, contentType: string) {
  const presign = await call(s, '/api/s3/presign-upload', { method: 'POST', json: { kind: 'upload', contentType } });
  expect(presign.status).toBe(200);
  const put = await fetch(presign.body.upload_url, {
    method: 'PUT',
    body: new Uint8Array(bytes),
    headers: { 'content-type': contentType },
  });
  const text = await put.text();
  return { presign: presign.body, status: put.status, body: text ? JSON.parse(text) : null };
}

async function download(url: string, name: string): Promise<string> {
  const file = path.join(root, name);
  fs.writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
  return file;
}

describe('captions from a stored upload, rendered', () => {
  let s: TestServer;
  let templateId: string;
  beforeAll(async () => {
    s = await startTestServer({ jobs: { renderConcurrency: 2 } }, { credits: 10_000 });
    templateId = await createTemplate(s);
  });
  afterAll(() => s?.close());

  it.each([
    ['.vtt', VTT, 'text/vtt'],
    ['.srt', SRT, 'application/x-subrip'],
  ] as const)(
    'a %s upload: the vtt sidecar has the cues of the file',
    async (_ext, text, type) => {
      const key = await upload(s, Buffer.from(text), type);
      const listed = await call(s, '/api/uploads?kind=captions');
      expect(listed.body.data.find((u: { s3_key: string }) => u.s3_key === key)).toMatchObject({
        kind: 'captions',
        content_type: type,
        size: Buffer.byteLength(text),
      });
      const r = await generate(s, templateId, { variables: { scene: 'A harbour', subs: key }, outputs: ['vtt'] });
      expect(r.status).toBe(200);
      const g = await finishedGeneration(s, r.body.generations[0].generation_id);
      expect(g.status).toBe('completed');
      // The record names the file; it does not copy its text.
      expect(g.inputs.subs).toEqual({
        type: 'captions',
        source: 'storage_key',
        storage_key: key,
        content_type: type,
        size: Buffer.byteLength(text),
        role: 'captions',
      });
      const vtt = await (await fetch(g.outputs.vtt)).text();
      expect(parseCaptions(vtt)).toEqual(parseCaptions(text));
    },
    120_000,
  );

  it("a template's default captions file: a generation without the variable delivers its cues", async () => {
    const key = await upload(s, Buffer.from(VTT), 'text/vtt');
    const subs = { key: 'subs', label: 'Captions', type: 'captions', required: true, default_value: key };
    const withDefault = await createTemplate(s, {
      ...captionedTemplate,
      input_variables: [captionedTemplate.input_variables[0], subs],
    });
    const r = await generate(s, withDefault, { variables: { scene: 'A harbour' }, outputs: ['vtt'] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const g = await finishedGeneration(s, r.body.generations[0].generation_id);
    expect(g.status).toBe('completed');
    expect(g.inputs.subs).toEqual({
      type: 'captions',
      source: 'default',
      storage_key: key,
      content_type: 'text/vtt',
      size: Buffer.byteLength(VTT),
      role: 'captions',
    });
    expect(parseCaptions(await (await fetch(g.outputs.vtt)).text())).toEqual(parseCaptions(VTT));
  }, 120_000);

  it('burned in: a frame shows a caption exactly while a cue of the uploaded file is on screen', async () => {
    const key = await upload(s, Buffer.from(SRT), 'application/x-subrip');
    // The baseline has captions too, all after the end: the same layout, none drawn.
    const later = '1\n00:01:00,000 --> 00:01:01,000\nlater\n';
    const [plain, captioned] = await Promise.all(
      [later, key].map(async (subs) => {
        const r = await generate(s, templateId, { variables: { scene: 'A harbour at dawn', subs } });
        expect(r.status).toBe(200);
        const g = await finishedGeneration(s, r.body.generations[0].generation_id);
        expect(g.status).toBe('completed');
        return download(g.video_url, `${g.id}.mp4`);
      }),
    );
    const { width, height } = resolutionSize('480p', '16:9');
    const a = bands(plain, width, height);
    const b = bands(captioned, width, height);
    expect(a).toHaveLength(DURATION_SEC * FPS);
    expect(b).toHaveLength(DURATION_SEC * FPS);
    const cues = parseCaptions(SRT);
    for (const [n, frame] of a.entries()) {
      const d = changed(frame, b[n]!);
      if (cueShown(cues, n)) expect(d, `frame ${n} should show a caption`).toBeGreaterThan(20);
      else expect(d, `frame ${n} should show none`).toBeLessThan(5);
    }
  }, 180_000);
});

describe('captions uploads: what is refused', () => {
  // Renders paused: generations stay `generating`, so what they hold can be seen.
  let s: TestServer;
  let templateId: string;
  beforeAll(async () => {
    s = await startTestServer({}, { credits: 10_000 });
    templateId = await createTemplate(s);
  });
  afterAll(() => s?.close());

  it('bytes that are not SRT/WebVTT text are refused when the upload arrives, naming the line, not the text', async () => {
    const png = await putUpload(s, media.png(), 'text/vtt');
    expect(png.status).toBe(400);
    expect(png.body.message).toBe('The file is not a captions file (SRT or WebVTT): its content is image/png.');

    const secret = 'a private sentence that must not be echoed';
    const malformed = await putUpload(s, Buffer.from(`1\n00:00:01,000 --> 00:00:00,500\n${secret}\n`), 'text/vtt');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/not valid SRT or WebVTT captions: line 2: the cue ends/);
    expect(malformed.body.message).not.toContain(secret);

    const latin1 = Buffer.concat([Buffer.from('1\n00:00:00,000 --> 00:00:01,000\nCaf'), Buffer.from([0xe9, 0x0a])]);
    const notUtf8 = await putUpload(s, latin1, 'application/x-subrip');
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.body.message).toContain('it is not UTF-8 text');
    // Nothing was kept: the URLs can be used again, and the list holds no captions.
    expect((await call(s, '/api/uploads?kind=captions')).body.data).toEqual([]);
  });

  it('a captions file over 512 KB is refused', async () => {
    const big = `WEBVTT\n\n00:00.000 --> 00:01.000\n${'x'.repeat(MAX_CAPTION_BYTES)}\n`;
    const r = await putUpload(s, Buffer.from(big), 'text/vtt');
    expect(r.presign.max_bytes).toBe(MAX_CAPTION_BYTES);
    expect(r.status).toBe(413);
    expect(r.body.error).toBe('payload_too_large');
  });

  it('text/srt is taken as SubRip under the name the client chose', async () => {
    const r = await putUpload(s, Buffer.from(SRT), 'text/srt');
    expect(r.status).toBe(200);
    expect(r.body.content_type).toBe('text/srt');
    expect(r.presign.s3_key).toMatch(/\.srt$/);
  });

  it("another organization's captions key, an unknown key, an image key: 400, nothing charged", async () => {
    const other = s.newOrg('other');
    s.core.credits.grant(other.orgId, 100);
    const theirs = await upload(s, Buffer.from(VTT), 'text/vtt', other.key);
    const image = await upload(s, media.png(), 'image/png');
    const balance = s.core.credits.balance(s.orgId);
    for (const [subs, message] of [
      [theirs, 'does not refer to a file uploaded by this organization'],
      ['uploads/nobody/x/none.vtt', 'does not refer to a file uploaded by this organization'],
      [image, 'The file is not a captions file (SRT or WebVTT): the storage key refers to an image.'],
      ['https://example.com/subs.vtt', 'not a URL'],
    ]) {
      const r = await generate(s, templateId, { variables: { scene: 'x', subs } });
      expect(r.status, subs).toBe(400);
      expect(r.body.message).toContain(`variables.subs: `);
      expect(r.body.message).toContain(message);
    }
    expect(s.core.credits.balance(s.orgId)).toBe(balance);
  });

  it("a template's captions default: a URL is refused when saved; a key not this org's captions is a 400 at generate", async () => {
    const withDefault = (default_value: string) => ({
      ...captionedTemplate,
      input_variables: [
        captionedTemplate.input_variables[0],
        { key: 'subs', label: 'Captions', type: 'captions', default_value },
      ],
    });
    const url = await call(s, '/api/templates', {
      method: 'POST',
      json: withDefault('https://example.com/subs.vtt'),
    });
    expect(url.status).toBe(400);
    expect(url.body.message).toContain('input_variables[1] (subs): default_value: captions are SRT or WebVTT text');
    expect(url.body.message).toContain('not a URL');

    const other = s.newOrg('default-owner');
    const theirs = await upload(s, Buffer.from(VTT), 'text/vtt', other.key);
    const image = await upload(s, media.png(), 'image/png');
    const balance = s.core.credits.balance(s.orgId);
    for (const [key, message] of [
      [theirs, 'does not refer to a file uploaded by this organization'],
      [image, 'the storage key refers to an image'],
    ]) {
      const r = await generate(s, await createTemplate(s, withDefault(key)), { variables: { scene: 'x' } });
      expect(r.status, key).toBe(400);
      expect(r.body.message).toContain('variables.subs: ');
      expect(r.body.message).toContain(message);
    }
    expect(s.core.credits.balance(s.orgId)).toBe(balance);
  });

  it('a captions key given to an image variable is a 400', async () => {
    const key = await upload(s, Buffer.from(SRT), 'application/x-subrip');
    const r = await generate(s, await createTemplate(s, photoTemplate), { variables: { scene: 'x', photo: key } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'variables.photo: The file is not an image: the storage key refers to a captions file (SRT or WebVTT).',
    );
  });

  it('quote, batch rows and Create Generation take the key; the file is in use while a generation is made', async () => {
    const key = await upload(s, Buffer.from(VTT), 'text/vtt');
    const body = { variables: { scene: 'x', subs: key }, outputs: ['vtt'] };
    const q = await call(s, `/api/templates/${templateId}/quote`, { method: 'POST', json: body });
    expect(q.status).toBe(200);
    // A URL is refused by the quote as generate refuses it.
    const url = { variables: { scene: 'x', subs: 'https://example.com/subs.vtt' } };
    const refusedQuote = await call(s, `/api/templates/${templateId}/quote`, { method: 'POST', json: url });
    expect(refusedQuote.status).toBe(400);
    expect(refusedQuote.body.message).toContain('variables.subs: captions are SRT or WebVTT text');
    expect(refusedQuote.body.message).toContain('not a URL');

    const batch = await generate(s, templateId, {
      variables: { scene: 'x' },
      outputs: ['vtt'],
      batch: [{ variables: { subs: key } }, { variables: { subs: SRT } }],
    });
    expect(batch.status).toBe(200);
    const [first, second] = await Promise.all(
      batch.body.generations.map(
        async (g: { generation_id: string }) => (await call(s, `/api/generations/${g.generation_id}`)).body.inputs.subs,
      ),
    );
    expect(first).toMatchObject({ source: 'storage_key', storage_key: key });
    expect(first.value).toBeUndefined();
    expect(second).toEqual({ type: 'captions', source: 'request', value: SRT, role: 'captions' });

    const model = await call(s, '/api/generations', {
      method: 'POST',
      json: { prompt: 'A lighthouse', modelName: 'studio-v1-fast', captionsKey: key, outputs: ['vtt'] },
    });
    expect(model.status).toBe(200);
    const made = await call(s, `/api/generations/${model.body.generations[0].generation_id}`);
    expect(made.body.inputs.captions).toMatchObject({ type: 'captions', source: 'storage_key', storage_key: key });

    const listed = (await call(s, '/api/uploads?kind=captions')).body.data.find(
      (u: { s3_key: string }) => u.s3_key === key,
    );
    expect(listed.used_by).toMatch(/^generation gen_\w+, still generating$/);
    const del = await call(s, `/api/uploads/${encodeURIComponent(key)}`, { method: 'DELETE' });
    expect(del.status).toBe(409);
    expect(del.body.error).toBe('upload_in_use');
  });
});
