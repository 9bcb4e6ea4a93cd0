// The install step's feed: the checked installer in `<data dir>/updates` served on 127.0.0.1 as a generic
// electron-updater feed (any `*.yml` is its feed file naming that one file; the file itself; nothing else), so
// electron-updater installs the very file this app downloaded and checked, after its own checks (the SHA-512 again,
// the Windows publisher, the macOS code signature), without downloading it a second time from the internet.
// The same thing electron-updater's MacUpdater does for Squirrel.Mac.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { stringify } from 'yaml';
import type { FeedFile, FeedInfo } from './update-feed.js';

export interface LocalUpdateFeed {
  /** The feed's folder URL (`http://127.0.0.1:<port>/`). */
  url: string;
  close(): Promise<void>;
}

export async function serveStagedUpdate(update: {
  file: string;
  info: FeedInfo;
  picked: FeedFile;
}): Promise<LocalUpdateFeed> {
  const name = path.basename(update.file);
  const entry = { url: name, sha512: update.picked.sha512, size: update.picked.size };
  const feed = stringify({
    version: update.info.version,
    files: [entry],
    path: name,
    sha512: entry.sha512,
    ...(update.info.releaseDate ? { releaseDate: update.info.releaseDate } : {}),
  });
  const server = http.createServer((req, res) => {
    const asked = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(1));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
    } else if (asked.endsWith('.yml')) {
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(feed);
    } else if (asked === name) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': entry.size });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(update.file).pipe(res);
    } else {
      // The .blockmap of a differential download, say: electron-updater then takes the whole file.
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
