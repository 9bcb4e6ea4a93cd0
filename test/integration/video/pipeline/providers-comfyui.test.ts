import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JobCanceledError } from '../../../../src/main/core/jobs/job-types.js';
import { TemplateProviderSchema, providerPlaceholderKeys } from '../../../../src/shared/provider.schema.js';
import { ProviderError, type ProviderJob } from '../../../../src/main/core/video/pipeline/video-provider.js';
import { ComfyStandin } from '../../../fixtures/providers/comfyui-standin.js';
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
import { smallPng, waitForRequest } from '../../../fixtures/providers/standin-http.js';

/** A Wan-style image-to-video workflow in API format, with the template's placeholders. */
const WORKFLOW = {
  '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'wan2.1_i2v_480p.safetensors' } },
  '2': { class_type: 'CLIPTextEncode', inputs: { text: '{{prompt}}, {{style}} style', clip: ['1', 1] } },
  '3': { class_type: 'LoadImage', inputs: { image: '{{start}}' } },
  '4': {
    class_type: 'KSampler',
    inputs: { seed: 42, steps: 4, model: ['1', 0], positive: ['2', 0], latent_image: ['5', 0] },
  },
  '5': {
    class_type: 'EmptyHunyuanLatentVideo',
    inputs: { width: '{{width}}', height: '{{height}}', length: 33, batch_size: 1 },
  },
  '6': { class_type: 'VAEDecode', inputs: { samples: ['4', 0], vae: ['1', 2] } },
  '7': {
    class_type: 'VHS_VideoCombine',
    inputs: { images: ['6', 0], frame_rate: 8, format: 'video/h264-mp4', filename_prefix: 'AgentStudio' },
  },
};
const OPTIONS = { name: 'comfyui', workflow: WORKFLOW };
const TEXT_ONLY = {
  name: 'comfyui',
  workflow: Object.fromEntries(Object.entries(WORKFLOW).filter(([id]) => id !== '3')),
};

describe('ComfyUI provider against a stand-in of its HTTP and WebSocket API', () => {
  let comfy: ComfyStandin;
  const provider = () => registry({ comfyui: comfy.url }, fileSecrets()).get('comfyui');

  beforeAll(async () => {
    comfy = await new ComfyStandin().start();
  });
  afterAll(() => comfy.stop());
  beforeEach(() => {
    comfy.script = { steps: 4, stepMs: 5 };
    comfy.rateLimit = { prompts: 0, history: 0, retryAfter: '0' };
    comfy.websocket = true;
  });

  it('uploads the image, queues the filled workflow, follows progress over /ws and fetches a real MP4', async () => {
    const p = provider();
    const t = makeContext();
    const png = smallPng();
    const job = makeJob(OPTIONS, {
      category: 'image-to-video',
      media: [mediaFile(t.workDir, 'start', png, 'image/png')],
    });
    const { externalId } = await p.submit(job, t.ctx);

    const uploaded = `agent-studio/${job.generationId}-start.png`;
    expect(comfy.inputs.get(uploaded)).toEqual(png);
    const queued = comfy.seen('POST', '/prompt').at(-1)!.body as { prompt: typeof WORKFLOW; client_id: string };
    expect(queued.client_id).toBe(`agent-studio-${job.generationId}`);
    expect(queued.prompt['2'].inputs.text).toBe('a red fox running through snow, cinematic style');
    expect(queued.prompt['3'].inputs.image).toBe(uploaded);
    expect(queued.prompt['5'].inputs).toMatchObject({ width: 1280, height: 720, length: 33 });
    expect(queued.prompt['4'].inputs.model).toEqual(['1', 0]);

    const result = await p.follow(externalId, job, t.ctx);
    expect(path.dirname(result.videoPath)).toBe(t.workDir);
    expect(ffprobeStreams(result.videoPath)).toContainEqual(
      expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 64 }),
    );
    expect(comfy.wsClients).toContain(`agent-studio-${job.generationId}`);
    const percents = t.progress.map((p) => p.progress ?? 0);
    expect(percents.some((p) => p > 40 && p < 100)).toBe(true);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    const view = comfy.seen('GET', '/view').at(-1)!;
    expect(Object.fromEntries(view.query)).toEqual({
      filename: 'AgentStudio_00001.mp4',
      subfolder: '',
      type: 'output',
    });
  });

  it('reports the queue position while another prompt runs, then finishes when it is its turn', async () => {
    comfy.script = { steps: 1, stepMs: 1, hold: true };
    const first = makeJob(TEXT_ONLY);
    const second = makeJob(TEXT_ONLY);
    const a = makeContext();
    const b = makeContext();
    const p = provider();
    const idA = (await p.submit(first, a.ctx)).externalId;
    comfy.script = { steps: 1, stepMs: 1 };
    const idB = (await p.submit(second, b.ctx)).externalId;
    await waitForRequest(comfy, () => comfy.running?.id === idA, 'the first prompt to run');
    const followB = p.follow(idB, second, b.ctx);
    await waitForRequest(comfy, () => b.progress.some((x) => x.queuePosition === 1), 'queue position 1');
    comfy.release();
    const [ra, rb] = await Promise.all([p.follow(idA, first, a.ctx), followB]);
    expect(ffprobeStreams(ra.videoPath)[0].codec_type).toBe('video');
    expect(ffprobeStreams(rb.videoPath)[0].codec_type).toBe('video');
  });

  it('without a WebSocket it falls back to polling /history and still succeeds (SaveVideo output)', async () => {
    comfy.websocket = false;
    const wsBefore = comfy.wsClients.length;
    const workflow = {
      ...TEXT_ONLY.workflow,
      '7': { class_type: 'SaveVideo', inputs: { video: ['6', 0], filename_prefix: 'video/AgentStudio' } },
    };
    const t = makeContext();
    const job = makeJob({ name: 'comfyui', workflow, output_node: '7' });
    const { externalId } = await provider().submit(job, t.ctx);
    const result = await provider().follow(externalId, job, t.ctx);
    expect(ffprobeStreams(result.videoPath)[0].codec_type).toBe('video');
    expect(comfy.wsClients.length).toBe(wsBefore);
    expect(comfy.seen('GET', `/history/${externalId}`).length).toBeGreaterThan(1);
  });

  it('a failing node becomes a readable message (socket and history alike), never the traceback', async () => {
    for (const websocket of [true, false]) {
      comfy.websocket = websocket;
      comfy.script = {
        steps: 2,
        stepMs: 1,
        error: 'Allocation on device 0 would exceed allowed memory. (out of memory)',
      };
      const t = makeContext();
      const job = makeJob(TEXT_ONLY);
      const { externalId } = await provider().submit(job, t.ctx);
      const err = (await rejectionOf(provider().follow(externalId, job, t.ctx))) as ProviderError;
      expect(err).toBeInstanceOf(ProviderError);
      expect(err.message).toBe(
        'ComfyUI could not make the video: node 4 (KSampler): Allocation on device 0 would exceed allowed memory. (out of memory).',
      );
      expect(err.retryable).toBe(false);
      expectReadable(err.message, 'no-key');
    }
  });

  it('a workflow ComfyUI refuses (unknown node, invalid input) fails at submit with its reasons', async () => {
    const t = makeContext();
    const unknown = {
      name: 'comfyui',
      workflow: { ...TEXT_ONLY.workflow, '9': { class_type: 'WanMagic', inputs: {} } },
    };
    const e1 = (await rejectionOf(provider().submit(makeJob(unknown), t.ctx))) as ProviderError;
    expect(e1.message).toBe('ComfyUI refused the workflow: Cannot execute because node WanMagic does not exist.');
    const badImage = {
      name: 'comfyui',
      workflow: { ...TEXT_ONLY.workflow, '3': { class_type: 'LoadImage', inputs: { image: 'missing.png' } } },
    };
    const e2 = (await rejectionOf(provider().submit(makeJob(badImage), t.ctx))) as ProviderError;
    expect(e2.message).toBe(
      'ComfyUI refused the workflow: Prompt outputs failed validation; node 3 (LoadImage): Custom validation failed for node - image - Invalid image file: missing.png.',
    );
    expect(e2.retryable).toBe(false);
  });

  it('a workflow whose chosen output is not a video says so', async () => {
    const workflow = { ...TEXT_ONLY.workflow, '8': { class_type: 'SaveImage', inputs: { images: ['6', 0] } } };
    const t = makeContext();
    const job = makeJob({ name: 'comfyui', workflow, output_node: '8' });
    const { externalId } = await provider().submit(job, t.ctx);
    const err = await rejectionOf(provider().follow(externalId, job, t.ctx));
    expect(err.message).toBe(
      'The ComfyUI workflow finished without a video from node 8; end it with a node that saves a video (such as SaveVideo or VHS_VideoCombine).',
    );
  });

  it('429 on /prompt and 503 on /history (with Retry-After) are waited out, then it succeeds', async () => {
    comfy.rateLimit = { prompts: 1, history: 1, retryAfter: '1' };
    const t = makeContext();
    const job = makeJob(TEXT_ONLY);
    const { externalId } = await provider().submit(job, t.ctx);
    const prompts = comfy.seen('POST', '/prompt').slice(-2);
    expect(prompts[1].at - prompts[0].at).toBeGreaterThanOrEqual(950);
    const result = await provider().follow(externalId, job, t.ctx);
    expect(ffprobeStreams(result.videoPath)[0].codec_type).toBe('video');
    expect(comfy.rateLimit.history).toBe(0);
  });

  it('cancel: a running prompt is interrupted (by id), a waiting one is deleted from the queue', async () => {
    comfy.script = { steps: 1, stepMs: 1, hold: true };
    const p = provider();
    const runningJob = makeJob(TEXT_ONLY);
    const waitingJob = makeJob(TEXT_ONLY);
    const a = makeContext();
    const idA = (await p.submit(runningJob, a.ctx)).externalId;
    const idB = (await p.submit(waitingJob, makeContext().ctx)).externalId;
    await waitForRequest(comfy, () => comfy.running?.id === idA, 'the first prompt to run');

    // An abort (shutdown or cancel) stops following at once and sends nothing by itself.
    const following = p.follow(idA, runningJob, a.ctx);
    await waitForRequest(
      comfy,
      () => comfy.wsClients.includes(`agent-studio-${runningJob.generationId}`),
      'the socket',
    );
    a.abort.abort(new JobCanceledError());
    expect(await rejectionOf(following)).toBeInstanceOf(JobCanceledError);
    expect(comfy.seen('POST', '/interrupt')).toHaveLength(0);

    await p.cancel(idB, { log: silentLog });
    expect(comfy.seen('POST', '/queue').at(-1)!.body).toEqual({ delete: [idB] });
    expect(comfy.pending.map((i) => i.id)).not.toContain(idB);
    await p.cancel(idA, { log: silentLog });
    expect(comfy.seen('POST', '/interrupt').at(-1)!.body).toEqual({ prompt_id: idA });

    const errA = await rejectionOf(p.follow(idA, runningJob, makeContext().ctx));
    expect(errA.message).toBe('The ComfyUI job was interrupted.');
    const errB = await rejectionOf(p.follow(idB, waitingJob, makeContext().ctx));
    expect(errB.message).toBe(
      'ComfyUI no longer has this job (it was deleted from its queue, or the server restarted).',
    );
    comfy.release();
  });

  it('the template block schema: output_node must be a node, placeholders are listed for the template check', () => {
    const parsed = TemplateProviderSchema.parse({ ...OPTIONS, output_node: '7' });
    expect(providerPlaceholderKeys(parsed)).toEqual(['prompt', 'style', 'start', 'width', 'height']);
    const wrong = TemplateProviderSchema.safeParse({ ...OPTIONS, output_node: '42' });
    expect(wrong.error?.issues.map((i) => i.message)).toEqual([
      'provider.output_node "42" is not a node of the workflow',
    ]);
    expect(TemplateProviderSchema.safeParse({ name: 'comfyui', workflow: {} }).success).toBe(false);
    expect(TemplateProviderSchema.safeParse({ name: 'comfyui', workflow: WORKFLOW, model: 'x' }).success).toBe(false);
    expect(TemplateProviderSchema.safeParse({ name: 'sora', model: 'x' }).success).toBe(false);
    for (const model of ['acme/video', `acme/video:${'a'.repeat(64)}`, 'b'.repeat(64)]) {
      expect(TemplateProviderSchema.safeParse({ name: 'replicate', model }).success, model).toBe(true);
    }
    expect(TemplateProviderSchema.safeParse({ name: 'replicate', model: 'acme/video:latest' }).success).toBe(false);
    expect(TemplateProviderSchema.safeParse({ name: 'fal', model: 'https://queue.fal.run/x' }).success).toBe(false);
  });

  it('an unreachable ComfyUI is a temporary (retryable) error naming where it looked', async () => {
    const gone = await new ComfyStandin().start();
    const url = gone.url;
    await gone.stop();
    const p = registry({ comfyui: url }, fileSecrets()).get('comfyui');
    const job: ProviderJob = makeJob(TEXT_ONLY);
    const err = (await rejectionOf(p.submit(job, makeContext().ctx))) as ProviderError;
    expect(err.message).toBe(`Could not reach ComfyUI at ${url} (ECONNREFUSED).`);
    expect(err.retryable).toBe(true);
  });
});
