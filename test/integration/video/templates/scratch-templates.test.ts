// Scratch templates (`scratch: true`): the editor's preview copies. Not listed (nor counted in the pagination),
// readable by id, usable for drafts, quotes and — after a quote, as the editor's "Test render with the provider"
// does — a paid render; another organization's do not exist for it; deleted by the service once unchanged for
// SCRATCH_TEMPLATE_TTL_MS, at start-up and by the periodic sweep, on a clock the test moves (no waiting).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../src/main/core/config/load-config.js';
import { createCore } from '../../../../src/main/core/create-core.js';
import { startServer } from '../../../../src/main/core/run-server.js';
import { SCRATCH_TEMPLATE_TTL_MS } from '../../../../src/shared/video.schema.js';
import { startTestServer, type TestServer } from '../../../helpers/test-server.js';
import { balanceOf, call, chargesOf, finishedGeneration, generate, templateBody } from '../../../helpers/video-api.js';

const BUILTINS = 8;
const HOUR = 3600_000;

const create = (s: TestServer, over: Record<string, unknown>, key?: string) =>
  call(s, '/api/templates', { method: 'POST', json: templateBody(over), key });
const ids = (page: { data: { id: string }[] }) => page.data.map((t) => t.id);

describe('a scratch template', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Renders run: the draft of a scratch template is rendered, not only recorded.
    s = await startTestServer({ jobs: { renderConcurrency: 1 } }, { credits: 1000 });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('is not listed nor counted in the pagination, and is read by id with scratch: true', async () => {
    const org = s.newOrg('scratch-list');
    const saved = [(await create(s, { title: 'Saved one' }, org.key)).body, (await create(s, {}, org.key)).body];
    const scratch = await create(s, { title: 'Saved one (preview)', scratch: true }, org.key);
    expect(scratch.status).toBe(200);
    expect(scratch.body).toMatchObject({ scratch: true, builtin: false, title: 'Saved one (preview)' });
    expect(saved.map((t) => t.scratch)).toEqual([false, false]);

    const all = await call(s, '/api/templates?limit=100', { key: org.key });
    expect(all.body.data).toHaveLength(BUILTINS + 2);
    expect(ids(all.body)).not.toContain(scratch.body.id);
    expect(all.body.data.every((t: { scratch: boolean }) => t.scratch === false)).toBe(true);
    // Exactly a full page: has_more would be true if the scratch row were counted.
    const full = await call(s, `/api/templates?limit=${BUILTINS + 2}`, { key: org.key });
    expect(full.body.pagination).toEqual({ offset: 0, limit: BUILTINS + 2, has_more: false });
    const last = await call(s, `/api/templates?limit=1&offset=${BUILTINS + 1}`, { key: org.key });
    expect(ids(last.body)).toEqual([saved[1].id]);
    expect(last.body.pagination.has_more).toBe(false);
    const byCategory = await call(s, '/api/templates?category=text-to-video&limit=100', { key: org.key });
    expect(ids(byCategory.body)).toEqual(expect.arrayContaining(saved.map((t) => t.id)));
    expect(ids(byCategory.body)).not.toContain(scratch.body.id);

    const read = await call(s, `/api/templates/${scratch.body.id}`, { key: org.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(scratch.body);
    expect((await call(s, `/api/templates/${saved[0].id}`, { key: org.key })).body.scratch).toBe(false);
  });

  it('renders a free draft, gives a quote, and renders paid after it (the editor’s test render)', async () => {
    const { body: t } = await create(s, { scratch: true });
    const before = balanceOf(s, s.orgId);
    const draft = await generate(s, t.id, { variables: { topic: 'otters' }, draft: true });
    expect(draft.status).toBe(200);
    const drafted = await finishedGeneration(s, draft.body.generations[0].generation_id);
    expect(drafted).toMatchObject({ status: 'completed', draft: true, template_id: t.id });
    expect(drafted.video_url).toEqual(expect.any(String));
    expect(balanceOf(s, s.orgId)).toBe(before);

    const quote = await call(s, `/api/templates/${t.id}/quote`, {
      method: 'POST',
      json: { variables: { topic: 'otters' } },
    });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ credits: 4, per_video: 4, num_videos: 1, draft: false });
    // Decided: a paid render of a scratch template is allowed. The editor's "Test render with the provider…"
    // renders the template as it stands (unsaved) through its scratch copy, after this quote and the person's
    // confirmation; refusing it would make them save an untested template first.
    const paid = await generate(s, t.id, { variables: { topic: 'otters' } });
    expect(paid.status).toBe(200);
    expect(balanceOf(s, s.orgId)).toBe(before - quote.body.credits);
    expect(chargesOf(s, s.orgId)[0]).toMatchObject({ amount: -quote.body.credits }); // newest first
    expect((await call(s, '/api/templates?limit=100')).body.data.map((x: { id: string }) => x.id)).not.toContain(t.id);
    // Listed by what they are: ?draft=true the previews only, ?draft=false the rest (the desktop's Generations).
    const listIds = async (q: string) =>
      (await call(s, `/api/generations?limit=100${q}`)).body.data.map((g: { id: string }) => g.id) as string[];
    const [onlyDrafts, noDrafts, all] = await Promise.all([
      listIds('&draft=true'),
      listIds('&draft=false'),
      listIds(''),
    ]);
    expect(onlyDrafts).toContain(drafted.id);
    expect(onlyDrafts).not.toContain(paid.body.generations[0].generation_id);
    expect(noDrafts).toContain(paid.body.generations[0].generation_id);
    expect(noDrafts).not.toContain(drafted.id);
    expect([...onlyDrafts, ...noDrafts].sort()).toEqual([...all].sort());
    const bad = await call(s, '/api/generations?draft=yes');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'validation_error', message: expect.stringMatching(/draft/) });
  });

  it('another organization can neither see nor use it', async () => {
    const { body: t } = await create(s, { title: 'Private preview', scratch: true });
    const other = s.newOrg('scratch-other');
    const as = { key: other.key };
    expect((await call(s, `/api/templates/${t.id}`, as)).status).toBe(404);
    expect((await generate(s, t.id, { variables: { topic: 'abc' }, draft: true }, as)).status).toBe(404);
    const quote = await call(s, `/api/templates/${t.id}/quote`, { method: 'POST', json: { variables: {} }, ...as });
    expect(quote.status).toBe(404);
    expect((await call(s, `/api/templates/${t.id}`, { method: 'PUT', json: templateBody(), ...as })).status).toBe(404);
    expect((await call(s, `/api/templates/${t.id}`, { method: 'DELETE', ...as })).status).toBe(404);
    expect(ids((await call(s, '/api/templates?limit=100', as)).body)).not.toContain(t.id);
    expect((await call(s, `/api/templates/${t.id}`)).body.title).toBe('Private preview');
  });

  it('PUT/PATCH keep it scratch unless told false; a saved template cannot become scratch', async () => {
    const { body: t } = await create(s, { scratch: true });
    const put = await call(s, `/api/templates/${t.id}`, { method: 'PUT', json: templateBody({ title: 'Changed' }) });
    expect(put.body).toMatchObject({ title: 'Changed', scratch: true });
    const promoted = await call(s, `/api/templates/${t.id}`, { method: 'PATCH', json: { scratch: false } });
    expect(promoted.body).toMatchObject({ title: 'Changed', scratch: false });
    expect(ids((await call(s, '/api/templates?limit=100')).body)).toContain(t.id);

    for (const [method, json] of [
      ['PATCH', { scratch: true }],
      ['PUT', templateBody({ title: 'Hidden', scratch: true })],
    ] as const) {
      const refused = await call(s, `/api/templates/${t.id}`, { method, json });
      expect(refused.status, method).toBe(400);
      expect(refused.body.error).toBe('validation_error');
      expect(refused.body.message).toMatch(/not a scratch template and cannot become one/);
    }
    expect((await call(s, `/api/templates/${t.id}`)).body).toMatchObject({ title: 'Changed', scratch: false });
    const notBoolean = await call(s, '/api/templates', { method: 'POST', json: templateBody({ scratch: 'yes' }) });
    expect(notBoolean.status).toBe(400);
  });

  it('is documented in the OpenAPI document of the write bodies and the answer', async () => {
    const doc = (await call(s, '/api/openapi.json')).body;
    const schemas = doc.components.schemas;
    expect(schemas.TemplateWriteInput.properties.scratch.description).toMatch(/not list it .* deletes it 24 h after/);
    expect(schemas.TemplatePatchInput.properties.scratch.type).toBe('boolean');
    expect(schemas.Template.properties.scratch.type).toBe('boolean');
  });
});

describe('the scratch sweep', () => {
  it('deletes one unchanged for a day (periodic sweep and at start-up), keeps one changed since and saved ones', async () => {
    let offset = 0;
    const now = () => Date.now() + offset;
    const s = await startTestServer({}, { credits: 1000, overrides: { now } });
    const { dataDir } = s;
    try {
      const untouched = (await create(s, { title: 'Left by a crash (preview)', scratch: true })).body;
      const edited = (await create(s, { title: 'Still open (preview)', scratch: true })).body;
      const saved = (await create(s, { title: 'Saved long ago' })).body;
      const gen = await generate(s, untouched.id, { variables: { topic: 'otters' }, draft: true });
      expect(gen.status).toBe(200);

      offset = 23 * HOUR; // an edit in the open editor restarts its day
      const put = await call(s, `/api/templates/${edited.id}`, { method: 'PUT', json: templateBody({ title: 'x' }) });
      expect(put.body.updated_at).toBeGreaterThanOrEqual(untouched.updated_at + 23 * HOUR);

      offset = SCRATCH_TEMPLATE_TTL_MS + 60_000;
      expect(s.core.video.templates.sweepScratch()).toBe(1);
      expect((await call(s, `/api/templates/${untouched.id}`)).status).toBe(404);
      expect((await call(s, `/api/templates/${edited.id}`)).body).toMatchObject({ scratch: true, title: 'x' });
      expect((await call(s, `/api/templates/${saved.id}`)).status).toBe(200);
      // The generation made from the swept copy keeps its record.
      const record = await call(s, `/api/generations/${gen.body.generations[0].generation_id}`);
      expect(record.status).toBe(200);
      expect(record.body.template_id).toBe(untouched.id);
    } finally {
      await s.close();
    }

    // A later start on the same data dir, the day of the edited copy over: the start-up sweep takes it.
    offset = 23 * HOUR + SCRATCH_TEMPLATE_TTL_MS + 60_000;
    const core = createCore(
      parseConfig({ dataDir, log: { level: 'info' }, server: { port: 0 }, jobs: { renderConcurrency: 0 } }),
      { now },
    );
    const server = await startServer(core, { port: 0 });
    try {
      const left = core.db.prepare('SELECT title, scratch FROM templates WHERE org_id IS NOT NULL').all();
      expect(left).toEqual([{ title: 'Saved long ago', scratch: 0 }]);
    } finally {
      await server.close();
    }
  });
});
