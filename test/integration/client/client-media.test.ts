// The typed client's stored-file and character calls against a real server: list and delete uploads
// (a storage key with slashes as one path segment), change and delete a character.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentStudioError, createAgentStudioClient, type AgentStudioClient } from '../../../src/client/index.js';
import { media } from '../../helpers/media-fixtures.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

let s: TestServer;
let client: AgentStudioClient;

beforeAll(async () => {
  s = await startTestServer({}, { credits: 100 });
  client = createAgentStudioClient({ baseUrl: s.url, apiKey: s.key });
});
afterAll(() => s?.close());

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err as AgentStudioError,
  );

describe('typed client: uploads and characters', () => {
  it('lists and deletes stored files; a file in use is a 409 upload_in_use', async () => {
    const first = await client.uploads.upload(media.png(), 'image/png', { fileName: 'first.png' });
    const second = await client.uploads.upload(media.jpeg(), 'image/jpeg');
    const listed = await client.uploads.list({ kind: 'image' });
    expect(listed.data.map((u) => u.s3_key)).toEqual([second.s3_key, first.s3_key]);
    expect(listed.data[1]).toMatchObject({ file_name: 'first.png', content_type: 'image/png', source: 'presign' });

    const character = await client.characters.create({ name: 'Client Keeper', reference_image_keys: [first.s3_key] });
    const inUse = await failure(client.uploads.delete(first.s3_key));
    expect(inUse).toBeInstanceOf(AgentStudioError);
    expect(inUse).toMatchObject({ status: 409, code: 'upload_in_use' });

    const changed = await client.characters.update(character.id, {
      name: 'Client Keeper 2',
      reference_image_keys: [second.s3_key],
    });
    expect(changed).toMatchObject({ name: 'Client Keeper 2', reference_image_keys: [second.s3_key] });
    expect(changed.reference_image_urls).toHaveLength(1);
    await client.uploads.delete(first.s3_key);
    expect((await client.uploads.list()).data.map((u) => u.s3_key)).toEqual([second.s3_key]);

    await client.characters.delete(character.id);
    expect((await client.characters.list({ q: 'client keeper' })).data).toEqual([]);
    expect(await failure(client.characters.delete(character.id))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await failure(client.characters.update('chr_ava', { name: 'x' }))).toMatchObject({ status: 403 });
  });
});
