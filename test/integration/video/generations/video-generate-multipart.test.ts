import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../../../helpers/media-fixtures.js';
import { startTestServer, tempDir, type TestServer } from '../../../helpers/test-server.js';
import { call, generateMultipart, upload } from '../../../helpers/video-api.js';

let s: TestServer;
let realPng: Buffer;
let realWav: Buffer;
beforeAll(async () => {
  s = await startTestServer({}, { credits: 10_000 });
  // Real files made by ffmpeg once (tiny).
  const dir = tempDir('agent-studio-media-');
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=red:s=32x32',
    '-frames:v',
    '1',
    path.join(dir, 'a.png'),
  ]);
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=0.2',
    path.join(dir, 'a.wav'),
  ]);
  realPng = fs.readFileSync(path.join(dir, 'a.png'));
  realWav = fs.readFileSync(path.join(dir, 'a.wav'));
});
afterAll(async () => {
  await s?.close();
});

const file = (bytes: Buffer, type: string) => new Blob([new Uint8Array(bytes)], { type });
const generation = async (id: string) => (await call(s, `/api/generations/${id}`)).body;

describe('multipart/form-data generate', () => {
  it('takes a file in variables[KEY] and text in variables[KEY] fields', async () => {
    const form = new FormData();
    form.append('variables[photo]', file(realPng, 'image/png'), 'red.png');
    form.append('variables[motion]', 'a slow zoom');
    form.append('webhook_url', 'https://hooks.example.com/done');
    const r = await generateMultipart(s, 'image-to-video-animate', form);
    expect(r.status).toBe(200);
    expect(r.body.credits_charged).toBe(3);
    const g = await generation(r.body.generations[0].generation_id);
    expect(g.inputs.photo).toMatchObject({
      type: 'image',
      source: 'upload',
      content_type: 'image/png',
      size: realPng.length,
    });
    expect(g.inputs.motion).toEqual({ type: 'text', source: 'request', value: 'a slow zoom', role: 'motion' });
    expect(g.prompt).toBe('Animate the image: a slow zoom.');
    expect(g.webhook_url).toBe('https://hooks.example.com/done');
    const stored = await s.core.video.blobs.getStream(g.inputs.photo.storage_key);
    const chunks: Buffer[] = [];
    for await (const c of stored) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(realPng)).toBe(true);
  });

  it('takes character_variables[KEY], num_videos, several files (image + audio) and a storage key as text', async () => {
    const bg = await upload(s, media.png(128), 'image/png');
    const form = new FormData();
    form.append('character_variables[speaker]', 'chr_marcus');
    form.append('variables[voiceover]', file(realWav, 'audio/wav'), 'voice.wav');
    form.append('variables[background]', bg);
    form.append('num_videos', '2');
    const r = await generateMultipart(s, 'ingredients-talking-head', form);
    expect(r.status).toBe(200);
    expect(r.body.generations).toHaveLength(2);
    expect(r.body.credits_charged).toBe(24);
    const g = await generation(r.body.generations[1].generation_id);
    expect(g.inputs.speaker).toMatchObject({ source: 'character', character_id: 'chr_marcus' });
    expect(g.inputs.voiceover).toMatchObject({ type: 'audio', source: 'upload', content_type: 'audio/wav' });
    expect(g.inputs.background).toMatchObject({ source: 'storage_key', storage_key: bg });
  });

  it('accepts JSON objects in the variables / character_variables fields', async () => {
    const form = new FormData();
    form.append('variables', JSON.stringify({ scene: 'Two friends cook dinner together' }));
    form.append('character_variables', JSON.stringify({ character_a: 'chr_ava', character_b: 'chr_pixel_bot' }));
    const r = await generateMultipart(s, 'ingredients-two-characters', form);
    expect(r.status).toBe(200);
    const g = await generation(r.body.generations[0].generation_id);
    expect(g.inputs.character_b).toMatchObject({ character_id: 'chr_pixel_bot' });
  });

  it('a character beats a file for the same key (the file is not kept)', async () => {
    const form = new FormData();
    form.append('variables[character_a]', file(media.png(77), 'image/png'), 'x.png');
    form.append('character_variables[character_a]', 'chr_ava');
    form.append('variables[scene]', 'A scene long enough to pass');
    const r = await generateMultipart(s, 'ingredients-two-characters', form);
    expect(r.status).toBe(200);
    expect((await generation(r.body.generations[0].generation_id)).inputs.character_a.source).toBe('character');
    // neither the object nor its uploads row is kept
    const rows = s.core.db.prepare("SELECT s3_key FROM uploads WHERE source = 'multipart' AND size = 77").all() as {
      s3_key: string;
    }[];
    expect(rows).toHaveLength(0);
  });

  it('rejects bad parts with 400 (and stores nothing)', async () => {
    const org = s.newOrg('mp-bad');
    const before = s.core.credits.balance(org.orgId);
    const cases: [string, (f: FormData) => void, RegExp][] = [
      [
        'file for an unknown key',
        (f) => f.append('variables[nope]', file(media.png(), 'image/png'), 'a.png'),
        /unknown variable "nope"/,
      ],
      [
        'file for a text variable',
        (f) => f.append('variables[motion]', file(media.png(), 'image/png'), 'a.png'),
        /text variable takes text/,
      ],
      ['file in a wrong field', (f) => f.append('photo', file(media.png(), 'image/png'), 'a.png'), /variables\[KEY\]/],
      ['unknown text field', (f) => f.append('colour', 'red'), /unknown multipart field "colour"/],
      [
        'not an image',
        (f) => f.append('variables[photo]', file(media.text(), 'image/png'), 'a.png'),
        /^variables\.photo: /,
      ],
      ['required missing', (f) => f.append('variables[motion]', 'zoom'), /missing required variable\(s\): photo/],
      [
        'bad num_videos',
        (f) => {
          f.append('variables[photo]', file(media.png(), 'image/png'), 'a.png');
          f.append('num_videos', 'many');
        },
        /num_videos/,
      ],
      ['bad JSON field', (f) => f.append('variables', '{oops'), /JSON object/],
      [
        'key given twice',
        (f) => {
          f.append('variables[motion]', 'a');
          f.append('variables', JSON.stringify({ motion: 'b' }));
        },
        /given more than once/,
      ],
      [
        'file and value for one key',
        (f) => {
          f.append('variables[photo]', file(media.png(), 'image/png'), 'a.png');
          f.append('variables[photo]', 'uploads/x/y.png');
        },
        /given both as a file and as a value/,
      ],
    ];
    for (const [name, build, message] of cases) {
      const form = new FormData();
      build(form);
      const r = await generateMultipart(s, 'image-to-video-animate', form, { key: org.key });
      expect(r.status, name).toBe(400);
      expect(r.body.error, name).toBe('validation_error');
      expect(r.body.message, name).toMatch(message);
    }
    expect(s.core.credits.balance(org.orgId)).toBe(before);
    // files stored before a later part was refused are discarded again (object and uploads row)
    const keys = s.core.db.prepare('SELECT s3_key FROM uploads WHERE org_id = ?').all(org.orgId) as {
      s3_key: string;
    }[];
    expect(keys).toEqual([]);
  });

  it('a file over its kind limit is a 413 payload_too_large', async () => {
    const big = Buffer.concat([media.png(), Buffer.alloc(20 * 1024 * 1024 + 10)]);
    const form = new FormData();
    form.append('variables[photo]', file(big, 'image/png'), 'big.png');
    const r = await generateMultipart(s, 'image-to-video-animate', form);
    expect(r.status).toBe(413);
    expect(r.body.error).toBe('payload_too_large');
  });

  it('an unknown template answers 404 even with a file in flight', async () => {
    const form = new FormData();
    form.append('variables[photo]', file(media.png(256 * 1024), 'image/png'), 'a.png');
    const r = await generateMultipart(s, 'nope', form);
    expect(r.status).toBe(404);
  });
});
