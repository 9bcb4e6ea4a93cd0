import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_PROCESS_WRITES_SEEN_WITHIN_MS } from '../../../../src/main/core/db/change-stamp.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { call, generate, templateBody } from '../../../helpers/video-api.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { credits: 1000 });
});
afterAll(async () => {
  await s?.close();
});

const BUILTINS = 8;

describe('GET /api/templates', () => {
  it('lists the built-ins with the spec fields, paginated', async () => {
    const r = await call(s, '/api/templates');
    expect(r.status).toBe(200);
    expect(r.body.pagination).toEqual({ offset: 0, limit: 50, has_more: false });
    expect(r.body.data).toHaveLength(BUILTINS);
    for (const t of r.body.data) {
      expect(t).toMatchObject({
        id: expect.any(String),
        title: expect.any(String),
        category: expect.any(String),
        builtin: true,
      });
      expect(t.duration_sec).toBeGreaterThan(0);
      expect(t.latency_estimate_sec).toEqual({ typical: expect.any(Number), busy: expect.any(Number) });
      expect(Array.isArray(t.input_variables)).toBe(true);
      expect(t.credits_per_video).toBeGreaterThan(0);
    }
    const categories = new Set(r.body.data.map((t: { category: string }) => t.category));
    expect([...categories].sort()).toEqual([
      'audio-to-video',
      'image-to-video',
      'ingredients-to-video',
      'text-to-video',
      'video-to-video',
    ]);
    const types = new Set(
      r.body.data.flatMap((t: { input_variables: { type: string }[] }) => t.input_variables.map((v) => v.type)),
    );
    expect([...types].sort()).toEqual(['audio', 'image', 'text', 'video']);
    expect(
      r.body.data.some((t: { prompt_template: string | null }) => /\{\{\w+\}\}/.test(t.prompt_template ?? '')),
    ).toBe(true);
  });

  it('pages with limit/offset and has_more', async () => {
    const first = await call(s, '/api/templates?limit=3');
    expect(first.body.data).toHaveLength(3);
    expect(first.body.pagination).toEqual({ offset: 0, limit: 3, has_more: true });
    const last = await call(s, `/api/templates?limit=3&offset=${BUILTINS - 2}`);
    expect(last.body.data).toHaveLength(2);
    expect(last.body.pagination.has_more).toBe(false);
    const ids = new Set([...first.body.data, ...last.body.data].map((t: { id: string }) => t.id));
    expect(ids.size).toBe(5);
  });

  it('filters by category', async () => {
    const r = await call(s, '/api/templates?category=ingredients-to-video');
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThanOrEqual(2);
    expect(r.body.data.every((t: { category: string }) => t.category === 'ingredients-to-video')).toBe(true);
    expect((await call(s, '/api/templates?category=nope')).status).toBe(400);
  });

  it('clamps a limit above 100 and rejects limit < 1, non-numbers and a negative offset', async () => {
    const r = await call(s, '/api/templates?limit=500');
    expect(r.status).toBe(200);
    expect(r.body.pagination.limit).toBe(100);
    for (const q of ['limit=0', 'limit=-5', 'limit=abc', 'limit=2.5', 'offset=-1', 'offset=x']) {
      const bad = await call(s, `/api/templates?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.error).toBe('validation_error');
    }
  });

  it('the cached listing sees writes of this process at once and of other processes (CLI) within 50 ms', async () => {
    const org = s.newOrg('cache-org');
    expect((await call(s, '/api/templates', { key: org.key })).body.data).toHaveLength(BUILTINS);
    const created = await call(s, '/api/templates', { method: 'POST', json: templateBody(), key: org.key });
    expect((await call(s, '/api/templates', { key: org.key })).body.data).toHaveLength(BUILTINS + 1);
    const other = new Database(path.join(s.dataDir, 'agent-studio.db'));
    try {
      other.prepare('UPDATE templates SET title = ? WHERE id = ?').run('Renamed elsewhere', created.body.id);
    } finally {
      other.close();
    }
    // Another process's commit is seen within the documented window (this process's own writes at once).
    await new Promise((r) => setTimeout(r, OTHER_PROCESS_WRITES_SEEN_WITHIN_MS + 10));
    const listed = await call(s, '/api/templates', { key: org.key });
    expect(listed.body.data.find((t: { id: string }) => t.id === created.body.id).title).toBe('Renamed elsewhere');
    await call(s, `/api/templates/${created.body.id}`, { method: 'DELETE', key: org.key });
    expect((await call(s, '/api/templates', { key: org.key })).body.data).toHaveLength(BUILTINS);
  });

  it('GET /api/templates/:id returns one; an unknown id is a 404 not_found', async () => {
    const r = await call(s, '/api/templates/image-to-video-animate');
    expect(r.status).toBe(200);
    expect(r.body.input_variables[0]).toMatchObject({
      key: 'photo',
      type: 'image',
      required: true,
      slot: 'start_frame',
    });
    const missing = await call(s, '/api/templates/does-not-exist');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it('needs a key (401) with templates:read (403)', async () => {
    expect((await call(s, '/api/templates', { key: null })).body.error).toBe('unauthorized');
    expect((await call(s, '/api/templates', { key: 'pk_' + 'x'.repeat(40) })).status).toBe(401);
    const other = s.newOrg('no-read', ['characters:read']);
    const r = await call(s, '/api/templates', { key: other.key });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('forbidden');
  });
});

describe('organization templates', () => {
  it('creates, reads, patches, replaces and deletes its own template', async () => {
    const created = await call(s, '/api/templates', { method: 'POST', json: templateBody() });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      builtin: false,
      category: 'text-to-video',
      model: 'studio-v1',
      resolution: '720p',
      credits_per_video: 4,
    });
    expect((await call(s, `/api/templates/${id}`)).body.title).toBe('My template');

    const listed = await call(s, '/api/templates?limit=100');
    expect(listed.body.data.map((t: { id: string }) => t.id)).toContain(id);

    const patched = await call(s, `/api/templates/${id}`, { method: 'PATCH', json: { title: 'Renamed' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Renamed',
      prompt_template: 'A video about {{topic}}',
      duration_sec: 4,
    });

    const replaced = await call(s, `/api/templates/${id}`, {
      method: 'PUT',
      json: templateBody({ title: 'Replaced', duration_sec: null }),
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ title: 'Replaced', duration_sec: 8 });

    const gen = await generate(s, id, { variables: { topic: 'otters' } });
    expect(gen.status).toBe(200);
    const del = await call(s, `/api/templates/${id}`, { method: 'DELETE' });
    expect(del.body).toEqual({ id, deleted: true });
    expect((await call(s, `/api/templates/${id}`)).status).toBe(404);
    // The generation outlives its template.
    expect((await call(s, `/api/generations/${gen.body.generations[0].generation_id}`)).status).toBe(200);
  });

  it('refuses an invalid configuration with 400 and every reason', async () => {
    const bad = templateBody({
      category: 'image-to-video',
      input_variables: [
        { key: 'topic', label: 'Topic', type: 'text', min_length: 10, max_length: 5 },
        { key: 'topic', label: 'Again', type: 'text' },
        { key: 'clip', label: 'Clip', type: 'video', slot: 'start_frame' },
      ],
      prompt_template: 'About {{topic}} and {{nobody}} and {{bad-token}}',
    });
    const r = await call(s, '/api/templates', { method: 'POST', json: bad });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('validation_error');
    for (const reason of [
      'duplicate key "topic"',
      'min_length (10) is greater than max_length (5)',
      '{{nobody}} has no input variable',
      'malformed token',
      'slot "start_frame" takes a image',
      'needs at least one image variable',
    ]) {
      expect(r.body.message).toContain(reason);
    }
    const badType = await call(s, '/api/templates', {
      method: 'POST',
      json: templateBody({ input_variables: [{ key: 'x', label: 'X', type: 'gif' }] }),
    });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toMatch(/input_variables\.0\.type/);
    const unknownField = await call(s, '/api/templates', { method: 'POST', json: templateBody({ colour: 'red' }) });
    expect(unknownField.status).toBe(400);
  });

  it('a PATCH that would make the template invalid is refused and changes nothing', async () => {
    const { body } = await call(s, '/api/templates', { method: 'POST', json: templateBody() });
    const r = await call(s, `/api/templates/${body.id}`, {
      method: 'PATCH',
      json: { prompt_template: 'About {{missing}}' },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('{{missing}}');
    expect((await call(s, `/api/templates/${body.id}`)).body.prompt_template).toBe('A video about {{topic}}');
  });

  it('built-ins are read-only: 403 forbidden on PATCH, PUT and DELETE', async () => {
    for (const [method, json] of [
      ['PATCH', { title: 'x' }],
      ['PUT', templateBody()],
      ['DELETE', undefined],
    ] as const) {
      const r = await call(s, '/api/templates/text-to-video-cinematic', { method, json });
      expect(r.status, method).toBe(403);
      expect(r.body.error).toBe('forbidden');
      expect(r.body.message).toMatch(/read-only/);
    }
    expect((await call(s, '/api/templates/text-to-video-cinematic')).body.title).toBe('Cinematic scene from text');
  });

  it("writes need templates:write; another org's template does not exist for it", async () => {
    const reader = s.newOrg('reader-org', ['templates:read']);
    expect((await call(s, '/api/templates', { method: 'POST', json: templateBody(), key: reader.key })).status).toBe(
      403,
    );

    const mine = (await call(s, '/api/templates', { method: 'POST', json: templateBody({ title: 'Secret plan' }) }))
      .body;
    const other = s.newOrg('other-org-templates');
    expect((await call(s, `/api/templates/${mine.id}`, { key: other.key })).status).toBe(404);
    expect(
      (await call(s, `/api/templates/${mine.id}`, { method: 'PATCH', json: { title: 'hijack' }, key: other.key }))
        .status,
    ).toBe(404);
    expect((await call(s, `/api/templates/${mine.id}`, { method: 'DELETE', key: other.key })).status).toBe(404);
    expect((await generate(s, mine.id, { variables: { topic: 'abc' } }, { key: other.key })).status).toBe(404);
    const list = await call(s, '/api/templates?limit=100', { key: other.key });
    expect(list.body.data.map((t: { id: string }) => t.id)).not.toContain(mine.id);
    expect(list.body.data).toHaveLength(BUILTINS);
  });
});

describe('templates that cannot be generated from', () => {
  it('a stored invalid template (older version) lists fine but generate answers 422 invalid_template', async () => {
    s.core.db
      .prepare(
        `INSERT INTO templates (id, org_id, title, category, input_variables, prompt_template, model, resolution, created_at, updated_at)
         VALUES ('tpl_legacy', ?, 'Legacy', 'text-to-video', ?, 'Hello {{name}} {{ghost}}', 'studio-v1', '720p', 1, 1)`,
      )
      .run(
        s.orgId,
        JSON.stringify([{ key: 'name', label: 'Name', type: 'text', required: true, min_length: 9, max_length: 3 }]),
      );
    expect((await call(s, '/api/templates/tpl_legacy')).status).toBe(200);
    const r = await generate(s, 'tpl_legacy', { variables: { name: 'Bob' } });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe('invalid_template');
    expect(r.body.message).toContain('{{ghost}}');
    expect(r.body.message).toContain('min_length');

    s.core.db
      .prepare(
        "INSERT INTO templates (id, org_id, title, category, input_variables, created_at) VALUES ('tpl_broken', ?, 'Broken', 'text-to-video', 'not json', 1)",
      )
      .run(s.orgId);
    expect((await generate(s, 'tpl_broken', { variables: {} })).status).toBe(422);
  });

  it('a template whose model configuration has no price answers 400 pricing_error and charges nothing', async () => {
    const before = s.core.credits.balance(s.orgId);
    for (const over of [
      { model: 'future-model' },
      { resolution: '8k' },
      { model: 'studio-v1-fast', duration_sec: 60 },
    ]) {
      const t = await call(s, '/api/templates', { method: 'POST', json: templateBody(over) });
      expect(t.status).toBe(200);
      expect(t.body.credits_per_video).toBeNull();
      const r = await generate(s, t.body.id, { variables: { topic: 'pricing' } });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('pricing_error');
    }
    expect(s.core.credits.balance(s.orgId)).toBe(before);
  });

  it('GET /api/pricing documents the table', async () => {
    const r = await call(s, '/api/pricing');
    expect(r.status).toBe(200);
    expect(r.body.models['studio-v1'].credits_per_second['720p']).toBe(1);
    expect(r.body.formula).toMatch(/ceil/);
  });
});
