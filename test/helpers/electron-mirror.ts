// A stand-in for what `npm start` fetches Electron from (scripts/electron-binary.mjs): a copy of the electron package
// that Electron's own installer may write into (node_modules is shared between checkouts), a small archive named as
// the installer asks for it whose `electron` is a shell script that records it was started, and an ELECTRON_MIRROR
// served on loopback.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { zipSync } from 'fflate';
import { REPO_ROOT } from './repo-root.js';

const REAL_ELECTRON = path.join(REPO_ROOT, 'node_modules', 'electron');

/** The Electron version the installed package fetches (its package.json). */
export const ELECTRON_VERSION = (
  JSON.parse(fs.readFileSync(path.join(REAL_ELECTRON, 'package.json'), 'utf8')) as { version: string }
).version;

/** The archive's name as @electron/get builds it: electron-v<version>-<platform>-<arch>.zip. */
export const ARCHIVE_NAME = `electron-v${ELECTRON_VERSION}-${process.platform}-${process.arch}.zip`;

/** The folder on the mirror: ELECTRON_MIRROR + v<version>/ + file. */
export const MIRROR_DIR = `/v${ELECTRON_VERSION}/`;

/** The executable inside the archive, as install.js's path.txt names it per platform. */
const EXECUTABLE = process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';

/**
 * The stand-in archive: an executable shell script that writes its working directory and then each argument, one a
 * line, to the file named by STAND_IN_ELECTRON_MARKER, and exits 0.
 */
export function standInArchive(): { zip: Buffer; sha256: string } {
  const script = [
    '#!/bin/sh',
    '# Stand-in for the Electron binary: records that it was started, where and with what.',
    '{ pwd; for arg in "$@"; do printf "%s\\n" "$arg"; done; } > "$STAND_IN_ELECTRON_MARKER"',
    '',
  ].join('\n');
  const zip = Buffer.from(
    zipSync({
      [EXECUTABLE]: [new TextEncoder().encode(script), { os: 3, attrs: 0o755 << 16, level: 0 }],
      version: [new TextEncoder().encode(`v${ELECTRON_VERSION}`), { level: 0 }],
    }),
  );
  return { zip, sha256: crypto.createHash('sha256').update(zip).digest('hex') };
}

/**
 * A copy of node_modules/electron in `parent`/node_modules/electron (without a binary, and with `checksums` as its
 * checksums.json, as the real package lists the real archives'), beside links to the installer's own dependencies.
 */
export function standInElectronPackage(parent: string, checksums: Record<string, string>): string {
  const modules = path.join(parent, 'node_modules');
  const dir = path.join(modules, 'electron');
  fs.mkdirSync(dir, { recursive: true });
  for (const name of fs.readdirSync(REAL_ELECTRON)) {
    if (['dist', 'path.txt', 'electron.d.ts', 'checksums.json'].includes(name)) continue;
    fs.cpSync(path.join(REAL_ELECTRON, name), path.join(dir, name));
  }
  fs.writeFileSync(path.join(dir, 'checksums.json'), JSON.stringify(checksums));
  // install.js requires @electron/get and @electron-internal/extract-zip from its own folder's node_modules.
  for (const scope of ['@electron', '@electron-internal']) {
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', scope), path.join(modules, scope));
  }
  return dir;
}

export interface StandInMirror {
  /** ELECTRON_MIRROR (ends with a slash, as the installer appends `v<version>/<file>`). */
  url: string;
  /** The paths asked for, in order. */
  requests: string[];
  /** Resolves when the request left unanswered (`hang`) arrives. */
  hungRequestArrived: Promise<void>;
  /** Resolves when the request left unanswered is closed by the client that sent it. */
  hungRequestClosed: Promise<void>;
  close(): Promise<void>;
}

/** Serves `files` (name → content) under MIRROR_DIR on 127.0.0.1; a request for `hang` is never answered. */
export async function startStandInMirror(
  files: Record<string, Buffer | string>,
  hang?: string,
): Promise<StandInMirror> {
  const requests: string[] = [];
  let hungArrived!: () => void;
  const hungRequestArrived = new Promise<void>((resolve) => (hungArrived = resolve));
  let hungClosed!: () => void;
  const hungRequestClosed = new Promise<void>((resolve) => (hungClosed = resolve));
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    requests.push(url);
    const name = url.startsWith(MIRROR_DIR) ? url.slice(MIRROR_DIR.length) : '';
    if (hang && name === hang) {
      res.on('close', () => hungClosed());
      hungArrived();
      return;
    }
    const body = Object.hasOwn(files, name) ? files[name] : undefined;
    if (body === undefined) return void res.writeHead(404).end('not on this mirror');
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    hungRequestArrived,
    hungRequestClosed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
