import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/main/core/config/load-config.js';
import { createCore } from '../../../../src/main/core/create-core.js';
import { CoreEventBus } from '../../../../src/main/core/events.js';
import { JobCanceledError, type Job } from '../../../../src/main/core/jobs/job-types.js';
import type { SecretStore } from '../../../../src/main/core/secrets/secret-store.js';
import type { PipelineGeneration } from '../../../../src/main/core/video/pipeline/provider-job.js';
import { createProviderRegistry } from '../../../../src/main/core/video/pipeline/providers/provider-registry.js';
import { createRenderJobHandler } from '../../../../src/main/core/video/pipeline/render-job.js';
import { ProviderError } from '../../../../src/main/core/video/pipeline/video-provider.js';
import { LocalBlobStore } from '../../../../src/main/core/video/uploads/storage/local-blob-store.js';
import { UrlSigner } from '../../../../src/main/core/video/uploads/storage/url-signer.js';
import { FalStandin } from '../../../fixtures/providers/fal-standin.js';
import {
  expectReadable,
  ffprobeStreams,
  fileSecrets,
  makeContext,
  makeJob,
  mediaFile,
  providersConfig,
  registry,
  rejectionOf,
  silentLog,
  tempDir,
} from '../../../fixtures/providers/provider-test-kit.js';
import { smallPng, waitForRequest } from '../../../fixtures/providers/standin-http.js';
import { REPO_ROOT } from '../../../helpers/repo-root.js';

const ROOT = REPO_ROOT;
const KEY = 'fal-4f1c2a7e-key:0b9d8c7e6f5a4b3c2d1e';
const MODEL = 'fal-ai/kling-video/v2/master/image-to-video';
const OPTIONS = {
  name: 'fal',
  model: MODEL,
  input: {
    prompt: '{{prompt}}, {{style}} style',
    image_url: '{{start}}',
    duration: '{{duration_sec}}',
    negative_prompt: '{{not_given}}',
    aspect_ratio: '16:9',
  },
};

describe('fal.ai provider against a stand-in of the queue API', () => {
  let fal: FalStandin;
  let secrets: SecretStore;
  const falProvider = (store = secrets) => registry({ fal: fal.url }, store).get('fal');

  beforeAll(async () => {
    fal = await new FalStandin(KEY).start();
    secrets = fileSecrets();
    await secrets.set('providers.fal.key', KEY);
  });
  afterAll(() => fal.stop());
  beforeEach(() => {
    fal.script = { queuePolls: 2, progressPolls: 3 };
    fal.rateLimit = { submits: 0, polls: 0, retryAfter: '0' };
  });

  it('submits the mapped input with the key, reports queue position and progress, and downloads a real MP4', async () => {
    const provider = falProvider();
    const t = makeContext();
    const png = smallPng();
    const job = makeJob(OPTIONS, {
      category: 'image-to-video',
      media: [mediaFile(t.workDir, 'start', png, 'image/png')],
    });

    const { externalId } = await provider.submit(job, t.ctx);
    expect(externalId).toMatch(/^fal-ai\/kling-video\/[0-9a-f-]{36}$/);
    const submitted = fal.seen('POST', `/${MODEL}`).at(-1)!;
    expect(submitted.authorization).toBe(`Key ${KEY}`);
    expect(submitted.body).toEqual({
      prompt: 'a red fox running through snow, cinematic style',
      image_url: `data:image/png;base64,${png.toString('base64')}`,
      duration: 5,
      aspect_ratio: '16:9',
    });

    const result = await provider.follow(externalId, job, t.ctx);
    expect(path.dirname(result.videoPath)).toBe(t.workDir);
    expect(ffprobeStreams(result.videoPath)).toContainEqual(
      expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 64 }),
    );
    expect(t.progress.filter((p) => p.queuePosition !== undefined).map((p) => p.queuePosition)).toEqual([1, 0]);
    expect(t.progress.map((p) => p.progress).filter((p) => p! > 0)).toEqual([25, 50, 75]);
    const requestId = externalId.split('/').pop()!;
    const polls = fal.requests.filter((r) => r.path === `/fal-ai/kling-video/requests/${requestId}/status`);
    expect(polls.length).toBe(6);
    expect(polls.every((r) => r.query.get('logs') === '1' && r.authorization === `Key ${KEY}`)).toBe(true);
    expect(fal.cdnSawAuthorization).toBe(false);
  });

  it('resumes from the external id alone in a new registry (as after a restart)', async () => {
    const t = makeContext();
    const job = makeJob({ ...OPTIONS, input: { prompt: '{{prompt}}' } });
    const { externalId } = await falProvider().submit(job, t.ctx);
    const result = await falProvider().follow(externalId, job, t.ctx);
    expect(ffprobeStreams(result.videoPath)[0].codec_type).toBe('video');
  });

  it("a model error fails with fal's own detail: not retryable, no key, no stack trace", async () => {
    fal.script = {
      queuePolls: 0,
      progressPolls: 1,
      failure: {
        status: 422,
        body: {
          detail: [
            { loc: ['body', 'prompt'], msg: 'The prompt was flagged by the content checker', type: 'content_policy' },
          ],
        },
      },
    };
    const t = makeContext();
    const job = makeJob(OPTIONS);
    const { externalId } = await falProvider().submit(job, t.ctx);
    const err = await rejectionOf(falProvider().follow(externalId, job, t.ctx));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(
      'fal.ai could not make the video (HTTP 422): prompt: The prompt was flagged by the content checker.',
    );
    expect((err as ProviderError).retryable).toBe(false);
    expectReadable(err.message, KEY);
  });

  it('an infrastructure failure (5xx with error_type) is retryable and read once, not polled again', async () => {
    fal.script = {
      queuePolls: 0,
      progressPolls: 0,
      failure: {
        status: 504,
        body: { detail: 'Request timed out', error_type: 'request_timeout' },
        errorType: 'request_timeout',
      },
    };
    const t = makeContext();
    const job = makeJob(OPTIONS);
    const { externalId } = await falProvider().submit(job, t.ctx);
    const err = (await rejectionOf(falProvider().follow(externalId, job, t.ctx))) as ProviderError;
    expect(err.message).toBe('fal.ai could not make the video (HTTP 504): Request timed out.');
    expect(err.retryable).toBe(true);
    expect(
      fal.requests.filter((r) => r.path === `/fal-ai/kling-video/requests/${externalId.split('/').pop()}`),
    ).toHaveLength(1);
  });

  it('a result that is not a video, is gone, or is too large fails readably without the signed URL', async () => {
    // The stand-in's CDN is on loopback: what went wrong there is not told (docs/security.md#outbound-requests); test/integration/net/outbound-policy.test.ts has the detailed texts of a public address.
    const unfetchable =
      'Could not download the finished video from fal.ai: no video could be fetched from the address it gave.';
    const cases = [
      { cdn: 'html' as const, message: unfetchable },
      { cdn: 'missing' as const, message: unfetchable },
    ];
    for (const { cdn, message } of cases) {
      fal.script = { queuePolls: 0, progressPolls: 0, cdn };
      const t = makeContext();
      const job = makeJob(OPTIONS);
      const { externalId } = await falProvider().submit(job, t.ctx);
      const err = await rejectionOf(falProvider().follow(externalId, job, t.ctx));
      expect(err.message).toBe(message);
      expectReadable(err.message, KEY);
      expect(fs.readdirSync(t.workDir)).toEqual([]);
    }
    fal.script = { queuePolls: 0, progressPolls: 0 };
    const small = createProviderRegistry({
      config: providersConfig({ fal: fal.url }),
      secrets,
      download: { maxBytes: 1000 },
    }).get('fal');
    const t = makeContext();
    const job = makeJob(OPTIONS);
    const { externalId } = await small.submit(job, t.ctx);
    const err = await rejectionOf(small.follow(externalId, job, t.ctx));
    expect(err.message).toBe(unfetchable);
  });

  it('a template provider block that is not valid fails at submit and says what is wrong', async () => {
    const t = makeContext();
    const noModel = await rejectionOf(falProvider().submit(makeJob({ name: 'fal', input: {} }), t.ctx));
    expect(noModel.message).toMatch(/^The template's provider settings are not valid \(model: /);
    const other = await rejectionOf(falProvider().submit(makeJob({ name: 'replicate', model: 'acme/x' }), t.ctx));
    expect(other.message).toBe('The template is set up for the replicate provider, not fal.');
  });

  it('a refused submit quotes the detail (404 unknown model) and is final', async () => {
    const t = makeContext();
    const err = (await rejectionOf(
      falProvider().submit(makeJob({ ...OPTIONS, model: 'fal-ai/no-such-model' }), t.ctx),
    )) as ProviderError;
    expect(err.message).toBe("fal.ai rejected the request (HTTP 404: Application 'no-such-model' not found).");
    expect(err.retryable).toBe(false);
  });

  it('429 with Retry-After on submit and on status polls is waited out, then the job succeeds', async () => {
    fal.rateLimit = { submits: 1, polls: 2, retryAfter: '1' };
    const t = makeContext();
    const job = makeJob(OPTIONS);
    const before = fal.requests.length;
    const { externalId } = await falProvider().submit(job, t.ctx);
    const submits = fal.requests.slice(before).filter((r) => r.method === 'POST');
    expect(submits).toHaveLength(2);
    // Retry-After: 1 was honoured (a lower bound only: the machine may be slower, never faster).
    expect(submits[1].at - submits[0].at).toBeGreaterThanOrEqual(950);
    const result = await falProvider().follow(externalId, job, t.ctx);
    expect(ffprobeStreams(result.videoPath)[0].codec_type).toBe('video');
    expect(fal.rateLimit.polls).toBe(0);
  });

  it('429 past the bounds becomes a retryable ProviderError with retryAfterSec for the pipeline', async () => {
    const t = makeContext();
    // Retry-After longer than the adapter waits itself (maxRetryAfterSec 5 in these tests): handed back at once.
    fal.rateLimit = { submits: 100, polls: 0, retryAfter: '30' };
    let before = fal.requests.length;
    const long = (await rejectionOf(falProvider().submit(makeJob(OPTIONS), t.ctx))) as ProviderError;
    expect(long).toMatchObject({ retryable: true, retryAfterSec: 30 });
    expect(long.message).toBe(
      'fal.ai is limiting requests (HTTP 429: Too many requests); it asked to try again in 30 s.',
    );
    expect(fal.requests.length - before).toBe(1);
    // Short waits are retried, but only a bounded number of times (5 tries).
    fal.rateLimit = { submits: 100, polls: 0, retryAfter: '0' };
    before = fal.requests.length;
    const many = (await rejectionOf(falProvider().submit(makeJob(OPTIONS), t.ctx))) as ProviderError;
    expect(many).toMatchObject({ retryable: true, retryAfterSec: 0 });
    expect(fal.requests.length - before).toBe(5);
  });

  it('an abort stops following at once without canceling (a shutdown resumes); cancel() reaches fal', async () => {
    fal.script = { hold: true };
    const provider = falProvider();
    const t = makeContext();
    const job = makeJob(OPTIONS);
    const { externalId } = await provider.submit(job, t.ctx);
    const following = provider.follow(externalId, job, t.ctx);
    const requestId = externalId.split('/').pop()!;
    await waitForRequest(fal, () => fal.jobs.get(requestId)!.polls >= 2, 'two status polls');
    t.abort.abort(new JobCanceledError());
    expect(await rejectionOf(following)).toBeInstanceOf(JobCanceledError);
    expect(fal.seen('PUT', '/cancel')).toHaveLength(0);

    await provider.cancel(externalId, { log: silentLog });
    const cancels = fal.seen('PUT', `/fal-ai/kling-video/requests/${requestId}/cancel`);
    expect(cancels).toHaveLength(1);
    expect(cancels[0].authorization).toBe(`Key ${KEY}`);
    expect(fal.jobs.get(requestId)!.canceled).toBe(true);
  });

  it('canceling the render job (AbortSignal with JobCanceledError) cancels the request at fal', async () => {
    fal.script = { hold: true };
    const work = tempDir('render-job-');
    const gen: PipelineGeneration = {
      id: 'gen_cancel_1',
      orgId: 'org_test',
      templateId: 'tpl_1',
      status: 'generating',
      inputs: { style: { type: 'text', source: 'request', value: 'noir' } },
      prompt: 'a lighthouse at night',
      model: 'studio-v1',
      resolution: '720p',
      durationSec: 5,
      category: 'text-to-video',
      provider: OPTIONS,
    };
    const saved: Record<string, unknown>[] = [];
    const handler = createRenderJobHandler({
      generations: { forPipeline: () => gen, progress: () => {}, complete: () => true, fail: () => true },
      blobs: new LocalBlobStore({
        root: path.join(work, 'blobs'),
        signer: new UrlSigner(secrets),
        baseUrl: 'http://127.0.0.1:9',
      }),
      provider: (name) => registry({ fal: fal.url }, secrets).get(name),
      finishResult: () => Promise.reject(new Error('not reached')),
      events: new CoreEventBus(),
      log: silentLog,
      workRoot: path.join(work, 'attempts'),
      timeoutMs: () => 60_000,
      finished: () => {},
    });
    const abort = new AbortController();
    const job: Job = {
      id: 'job_1',
      kind: 'render_generation',
      refId: gen.id,
      orgId: gen.orgId,
      status: 'running',
      lane: 'io',
      attempts: 1,
      payload: { provider: 'fal' },
    };
    const running = handler.run(job, { signal: abort.signal, savePayload: (p) => saved.push(p) });
    await waitForRequest(
      fal,
      () => saved.length > 0 && fal.seen('GET', '/status').length > 0,
      'the job to be followed',
    );
    const externalId = String(saved[0].externalId);
    abort.abort(new JobCanceledError());
    expect(await rejectionOf(running)).toBeInstanceOf(JobCanceledError);
    expect(fal.seen('PUT', `/fal-ai/kling-video/requests/${externalId.split('/').pop()}/cancel`)).toHaveLength(1);
    const submitted = fal.seen('POST', `/${MODEL}`).at(-1)!;
    expect(submitted.body).toMatchObject({ prompt: 'a lighthouse at night, noir style', duration: 5 });
  });

  it('no key: the error says exactly how to set one, and nothing is sent', async () => {
    const before = fal.requests.length;
    const err = await rejectionOf(falProvider(fileSecrets()).submit(makeJob(OPTIONS), makeContext().ctx));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe('No fal.ai API key is set. Set one with: npm run -s cli -- providers set-key fal');
    expect(fal.requests.length).toBe(before);
  });

  it('a refused key (401) says so and how to set a valid one, never quoting the key', async () => {
    const wrong = fileSecrets();
    await wrong.set('providers.fal.key', 'fal-wrong-key-9999');
    const err = (await rejectionOf(falProvider(wrong).submit(makeJob(OPTIONS), makeContext().ctx))) as ProviderError;
    expect(err.message).toBe(
      'fal.ai refused the API key (HTTP 401: Authentication is required to access this application). Set a valid key with: npm run -s cli -- providers set-key fal',
    );
    expect(err.retryable).toBe(false);
    expectReadable(err.message, 'fal-wrong-key-9999');
  });

  it('an unknown provider name is a readable ProviderError', () => {
    const reg = createProviderRegistry({ config: providersConfig({}), secrets });
    expect(() => reg.get('sora')).toThrow(
      'The template names the video provider "sora", which this installation does not have (it has: fal, replicate, comfyui).',
    );
  });

  it('`providers set-key fal` reads the key from stdin into the store the provider reads; argv is refused', async () => {
    const dataDir = tempDir('providers-cli-');
    const cli = (args: string[], input: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', ...args, '--data-dir', dataDir], {
        cwd: ROOT,
        input,
        encoding: 'utf8',
      });
    const set = cli(['providers', 'set-key', 'fal'], `${KEY}\n`);
    expect(set.stderr).toBe('');
    expect(set.status).toBe(0);
    expect(set.stdout).toMatch(/^saved the fal\.ai key in the (OS keychain|encrypted secrets file)$/m);
    expect(set.stdout + set.stderr).not.toContain(KEY);

    const onArgv = cli(['providers', 'set-key', 'fal', KEY], '');
    expect(onArgv.status).toBe(2);
    expect(onArgv.stderr).toMatch(/providers set-key takes fal or replicate/);
    const empty = cli(['providers', 'set-key', 'replicate'], '');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/no key was given/);

    const core = createCore(loadConfig({ dataDir }));
    try {
      const provider = registry({ fal: fal.url }, core.secrets).get('fal');
      const t = makeContext();
      const job = makeJob(OPTIONS);
      const { externalId } = await provider.submit(job, t.ctx);
      expect(fal.seen('POST', `/${MODEL}`).at(-1)!.authorization).toBe(`Key ${KEY}`);
      await provider.follow(externalId, job, t.ctx);
    } finally {
      await core.dispose();
    }
  });
});
