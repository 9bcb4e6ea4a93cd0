import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JobCanceledError } from '../../../../src/main/core/jobs/job-types.js';
import type { SecretStore } from '../../../../src/main/core/secrets/secret-store.js';
import { ProviderError } from '../../../../src/main/core/video/pipeline/video-provider.js';
import {
  expectReadable,
  ffprobeStreams,
  fileSecrets,
  makeContext,
  makeJob,
  mediaFile,
  registry,
  rejectionOf,
  silentLog,
} from '../../../fixtures/providers/provider-test-kit.js';
import { ReplicateStandin } from '../../../fixtures/providers/replicate-standin.js';
import { smallPng, waitForRequest } from '../../../fixtures/providers/standin-http.js';

const TOKEN = 'r8_Tq3kLw9vXbN2mYcP5sD7fG1hJ4aZ6eR0uI8o';
const VERSION = '5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa';
const OPTIONS = {
  name: 'replicate',
  model: 'acme/img2vid',
  input: { prompt: '{{prompt}}', image: '{{start}}', num_frames: 48, fps: 8, seconds: '{{duration_sec}}' },
};

describe('Replicate provider against a stand-in of the predictions API', () => {
  let rep: ReplicateStandin;
  let secrets: SecretStore;
  const provider = (store = secrets) => registry({ replicate: rep.apiUrl }, store).get('replicate');

  beforeAll(async () => {
    rep = await new ReplicateStandin(TOKEN).start();
    secrets = fileSecrets();
    await secrets.set('providers.replicate.token', TOKEN);
  });
  afterAll(() => rep.stop());
  beforeEach(() => {
    rep.script = { startingPolls: 1, processingPolls: 3 };
    rep.rateLimit = { creates: 0, polls: 0, retryAfter: '0' };
  });

  it('creates a prediction of an official model, follows its logs as progress and downloads a real MP4', async () => {
    const t = makeContext();
    const png = smallPng();
    const job = makeJob(OPTIONS, {
      category: 'image-to-video',
      media: [mediaFile(t.workDir, 'start', png, 'image/png')],
    });
    const { externalId } = await provider().submit(job, t.ctx);
    const created = rep.seen('POST', '/v1/models/acme/img2vid/predictions').at(-1)!;
    expect(created.authorization).toBe(`Bearer ${TOKEN}`);
    expect(created.body).toEqual({
      input: {
        prompt: 'a red fox running through snow',
        image: `data:image/png;base64,${png.toString('base64')}`,
        num_frames: 48,
        fps: 8,
        seconds: 5,
      },
    });
    const result = await provider().follow(externalId, job, t.ctx);
    expect(path.dirname(result.videoPath)).toBe(t.workDir);
    expect(ffprobeStreams(result.videoPath)).toContainEqual(
      expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 64 }),
    );
    expect(t.progress.map((p) => p.progress).filter((p) => p! > 0)).toEqual([25, 50, 75]);
    expect(rep.seen('GET', `/v1/predictions/${externalId}`).every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(
      true,
    );
    expect(rep.deliverySawAuthorization).toBe(false);
  });

  it('a pinned version goes to POST /predictions with the version; a list or object output is understood', async () => {
    for (const output of ['list', 'object'] as const) {
      rep.script = { startingPolls: 0, processingPolls: 1, output };
      const t = makeContext();
      const job = makeJob({ ...OPTIONS, model: `acme/img2vid:${VERSION}`, input: { prompt: '{{prompt}}' } });
      const { externalId } = await provider().submit(job, t.ctx);
      expect(rep.seen('POST', '/v1/predictions').at(-1)!.body).toEqual({
        version: VERSION,
        input: { prompt: 'a red fox running through snow' },
      });
      const result = await provider().follow(externalId, job, t.ctx);
      expect(ffprobeStreams(result.videoPath)[0].codec_type).toBe('video');
    }
  });

  it("a failed prediction gives Replicate's error without the traceback; not retryable", async () => {
    rep.script = { startingPolls: 0, processingPolls: 1, error: 'CUDA out of memory. Tried to allocate 2.00 GiB' };
    const t = makeContext();
    const job = makeJob(OPTIONS);
    const { externalId } = await provider().submit(job, t.ctx);
    const err = (await rejectionOf(provider().follow(externalId, job, t.ctx))) as ProviderError;
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe('Replicate could not make the video: CUDA out of memory. Tried to allocate 2.00 GiB.');
    expect(err.retryable).toBe(false);
    expectReadable(err.message, TOKEN);
  });

  it('input validation (422) quotes the detail; an unknown model (404) says not found; both final', async () => {
    const t = makeContext();
    const invalid = (await rejectionOf(
      provider().submit(makeJob({ ...OPTIONS, input: { prompt: '{{missing}}' } }), t.ctx),
    )) as ProviderError;
    expect(invalid.message).toBe('Replicate rejected the request (HTTP 422: - input.prompt: prompt is required).');
    expect(invalid.retryable).toBe(false);
    const unknown = (await rejectionOf(
      provider().submit(makeJob({ ...OPTIONS, model: 'acme/nope' }), t.ctx),
    )) as ProviderError;
    expect(unknown.message).toBe(
      'Replicate rejected the request (HTTP 404: The requested resource could not be found).',
    );
  });

  it('429 with Retry-After on create and on polls is waited out, then the prediction succeeds', async () => {
    rep.rateLimit = { creates: 1, polls: 1, retryAfter: '1' };
    const t = makeContext();
    const job = makeJob(OPTIONS);
    const before = rep.requests.length;
    const { externalId } = await provider().submit(job, t.ctx);
    const creates = rep.requests.slice(before).filter((r) => r.method === 'POST');
    expect(creates).toHaveLength(2);
    expect(creates[1].at - creates[0].at).toBeGreaterThanOrEqual(950);
    const result = await provider().follow(externalId, job, t.ctx);
    expect(ffprobeStreams(result.videoPath)[0].codec_type).toBe('video');
    expect(rep.rateLimit.polls).toBe(0);
  });

  it('throttling past the bounds is a retryable ProviderError with retryAfterSec and the detail', async () => {
    rep.rateLimit = { creates: 100, polls: 0, retryAfter: '30' };
    const err = (await rejectionOf(provider().submit(makeJob(OPTIONS), makeContext().ctx))) as ProviderError;
    expect(err).toMatchObject({ retryable: true, retryAfterSec: 30 });
    expect(err.message).toBe(
      'Replicate is limiting requests (HTTP 429: Request was throttled. Your rate limit resets in ~30s); it asked to try again in 30 s.',
    );
  });

  it('an abort stops polling at once; cancel() posts to the cancel endpoint and the prediction is canceled', async () => {
    rep.script = { hold: true };
    const p = provider();
    const t = makeContext();
    const job = makeJob(OPTIONS);
    const { externalId } = await p.submit(job, t.ctx);
    const following = p.follow(externalId, job, t.ctx);
    await waitForRequest(rep, () => rep.predictions.get(externalId)!.polls >= 2, 'two polls');
    t.abort.abort(new JobCanceledError());
    expect(await rejectionOf(following)).toBeInstanceOf(JobCanceledError);
    expect(rep.seen('POST', '/cancel')).toHaveLength(0);

    await p.cancel(externalId, { log: silentLog });
    const cancels = rep.seen('POST', `/v1/predictions/${externalId}/cancel`);
    expect(cancels).toHaveLength(1);
    expect(cancels[0].authorization).toBe(`Bearer ${TOKEN}`);
    // Following it now reports the cancel in words.
    const err = await rejectionOf(p.follow(externalId, job, makeContext().ctx));
    expect(err.message).toBe('The prediction was canceled at Replicate.');
  });

  it('no token: the error says exactly how to set one, and nothing is sent', async () => {
    const before = rep.requests.length;
    const err = await rejectionOf(provider(fileSecrets()).submit(makeJob(OPTIONS), makeContext().ctx));
    expect(err.message).toBe(
      'No Replicate API key is set. Set one with: npm run -s cli -- providers set-key replicate',
    );
    expect(rep.requests.length).toBe(before);
  });

  it('a refused token (401) says so without quoting it', async () => {
    const wrong = fileSecrets();
    await wrong.set('providers.replicate.token', 'r8_wrongwrongwrong');
    const err = (await rejectionOf(provider(wrong).submit(makeJob(OPTIONS), makeContext().ctx))) as ProviderError;
    expect(err.message).toBe(
      'Replicate refused the API key (HTTP 401: You did not pass a valid authentication token). Set a valid key with: npm run -s cli -- providers set-key replicate',
    );
    expectReadable(err.message, 'r8_wrongwrongwrong');
  });
});
