// Whether a stored fal.ai / Replicate key works is asked of the provider (provider-key-check.ts): the stand-ins
// speak the real protocols, so "connected" means the provider accepted the key and "refused" that it said no.
// A provider that cannot be reached, or answers something that says nothing about the key, leaves it unchecked.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkProviderKey } from '../../../../src/main/core/video/pipeline/providers/provider-key-check.js';
import { FalStandin } from '../../../fixtures/providers/fal-standin.js';
import { ReplicateStandin } from '../../../fixtures/providers/replicate-standin.js';

let fal: FalStandin;
let replicate: ReplicateStandin;
let broken: http.Server;
let brokenUrl: string;
let closedUrl: string;

beforeAll(async () => {
  fal = await new FalStandin('fal-right-key').start();
  replicate = await new ReplicateStandin('r8_right-token').start();
  broken = http.createServer((_req, res) => res.writeHead(502).end('bad gateway'));
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  brokenUrl = `http://127.0.0.1:${(broken.address() as { port: number }).port}`;
  // A port that was just free: nothing listens there.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  await fal?.stop();
  await replicate?.stop();
  await new Promise((resolve) => broken?.close(resolve));
});

describe('checking a provider key', () => {
  it('fal.ai: its queue accepts the right key (a request that cannot exist is 404) and refuses another (401)', async () => {
    expect(await checkProviderKey('fal', fal.url, 'fal-right-key')).toMatchObject({ outcome: 'connected' });
    const refused = await checkProviderKey('fal', fal.url, 'fal-wrong-key');
    expect(refused).toMatchObject({ outcome: 'refused', message: 'fal.ai refused the key (HTTP 401).' });
    const asked = fal.requests.filter((r) => r.path.endsWith('/status'));
    expect(asked.map((r) => r.authorization)).toEqual(['Key fal-right-key', 'Key fal-wrong-key']);
    expect(asked.every((r) => r.path.startsWith('/fal-ai/flux/dev/requests/'))).toBe(true);
    expect(fal.jobs.size).toBe(0); // nothing was queued, nothing paid for
  });

  it('Replicate: GET /account with the token', async () => {
    expect(await checkProviderKey('replicate', replicate.apiUrl, 'r8_right-token')).toMatchObject({
      outcome: 'connected',
    });
    expect(await checkProviderKey('replicate', replicate.apiUrl, 'r8_wrong')).toMatchObject({
      outcome: 'refused',
      message: 'Replicate refused the key (HTTP 401).',
    });
    expect(replicate.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/account', 'GET /v1/account']);
  });

  it('unreachable or answering something else: not checked, with the reason, never the key', async () => {
    const closed = await checkProviderKey('replicate', closedUrl, 'r8_secret-token-1');
    expect(closed.outcome).toBe('unreachable');
    expect(closed.message).toMatch(/Replicate/);
    const bad = await checkProviderKey('fal', brokenUrl, 'fal-secret-key-2');
    expect(bad).toMatchObject({ outcome: 'unreachable', message: expect.stringMatching(/HTTP 502/) });
    expect(JSON.stringify([closed, bad])).not.toMatch(/secret-(token|key)/);
  });
});
