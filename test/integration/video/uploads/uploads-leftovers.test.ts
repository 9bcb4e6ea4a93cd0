import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { magic, media } from '../../../helpers/media-fixtures.js';
import { firstRunKey, spawnServer, type ServerProcess } from '../../../helpers/spawn.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { listFiles, waitFor } from '../../../helpers/upload-client.js';

const MiB = 1024 * 1024;

/** A host whose image download starts and never ends, to catch the server mid-download. */
async function startStallingHost() {
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((_req, res) => {
    open.add(res);
    res.writeHead(200, { 'content-type': 'image/png' });
    res.write(Buffer.concat([media.png(), Buffer.alloc(64 * 1024)]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stall.png`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Item: `kill -9` left `blobs/**\/.tmp-*` files for ever; the server now sweeps its own leftovers at start. */
describe('leftovers of a killed server are swept at the next start', () => {
  const dataDir = tempDir();
  const blobs = path.join(dataDir, 'blobs');
  const temps = () => listFiles(blobs).filter((f) => path.basename(f).startsWith('.tmp-'));
  let server: ServerProcess;
  let host: Awaited<ReturnType<typeof startStallingHost>>;
  let key: string;

  beforeAll(async () => {
    host = await startStallingHost();
    server = await spawnServer(['--port', '0', '--data-dir', dataDir]);
    key = firstRunKey(server);
  });
  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await host?.close();
  });

  const api = (pathname: string, body: unknown) =>
    fetch(`${server.url}${pathname}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const logSays = (text: string, pid: number) =>
    fs
      .readFileSync(path.join(dataDir, 'logs', 'agent-studio.log'), 'utf8')
      .split('\n')
      .some((line) => line.includes(text) && line.includes(`"pid":${pid}`));

  it('removes only its own dead temp files and gives the interrupted upload URL back', async () => {
    expect(key).not.toBe('');
    // 1. Catch the server mid-PUT and mid-download, then kill -9 it.
    const presigned = await api('/api/s3/presign-upload', { kind: 'upload', contentType: 'video/mp4' });
    const upload = (await presigned.json()) as { s3_key: string; upload_url: string };
    const put = http.request(upload.upload_url, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4', 'content-length': 10 * MiB },
    });
    put.on('error', () => {});
    put.write(media.mp4(MiB));
    const character = api('/api/characters', { name: 'Stalled', reference_image_keys: [host.url] }).catch(() => null);
    await waitFor(() => temps().length === 2, 20_000);
    const killedPid = server.child.pid ?? 0;
    server.child.kill('SIGKILL');
    await server.exited;
    put.destroy();
    await character;
    const leftovers = temps();
    expect(leftovers).toHaveLength(2);
    expect(leftovers.some((f) => f.startsWith(path.join(...upload.s3_key.split('/').slice(0, -1))))).toBe(true);

    // 2. Things that look alike but are not this server's leftovers: all must survive the sweep.
    const decoys = path.join(blobs, 'uploads', 'decoys');
    fs.mkdirSync(decoys, { recursive: true });
    const hex = '0123456789abcdef';
    const keep = [
      path.join(decoys, `.tmp-${process.pid}-${hex}`), // a live writer (this test process)
      path.join(decoys, `.tmp-${killedPid}-${hex}.png`), // not exactly the pattern
      path.join(decoys, `x.tmp-${killedPid}-${hex}`),
      path.join(decoys, '.tmp-notours'),
      path.join(dataDir, `.tmp-${killedPid}-${hex}`), // outside the blobs dir
      path.join(dataDir, 'elsewhere', `.tmp-${killedPid}-${hex}`),
      path.join(dataDir, 'link-target.txt'),
      path.join(decoys, `.tmp-${killedPid}-ffffffffffffffff`, 'inner'), // a directory with the name
    ];
    for (const f of keep) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, 'keep me');
    }
    const link = path.join(decoys, `.tmp-${killedPid}-aaaaaaaaaaaaaaaa`); // a symlink with the name
    fs.symlinkSync(path.join(dataDir, 'link-target.txt'), link);
    const legacy = path.join(decoys, '.tmp-00112233aabbccdd'); // written before names carried the pid

    fs.writeFileSync(legacy, magic.png());

    // 3. Restart on the same data dir: the sweep runs at start.
    server = await spawnServer(['--port', '0', '--data-dir', dataDir]);
    const gone = (f: string) => !fs.existsSync(path.join(blobs, f));
    await waitFor(() => leftovers.every(gone) && !fs.existsSync(legacy), 20_000);
    // The sweep has finished (it logs once done), so what is still there was deliberately kept.
    await waitFor(() => logSays('swept leftovers of stopped processes', server.child.pid ?? 0), 20_000);
    for (const f of keep) expect(fs.readFileSync(f, 'utf8'), f).toBe('keep me');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, 'link-target.txt'), 'utf8')).toBe('keep me');

    // 4. The PUT the kill interrupted no longer holds its URL (now on the new server's port; the host is not signed).
    const url = new URL(upload.upload_url);
    url.host = new URL(server.url).host;
    const retry = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4' },
      body: media.mp4(4096),
    });
    expect(retry.status).toBe(200);
  });
});
