// The set-up shared by renderer.test.ts, renderer-library.test.ts and renderer-generations.test.ts: the renderer
// harness (renderer-harness.ts: the built renderer in Chromium, its IPC bridge calling a real API server over
// HTTP) in a 1360x860 window, full-page screenshots, and a real MP4 made with ffmpeg.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import type { TestServer } from '../../helpers/test-server.js';
import { startRendererHarness, type OpenApp, type RendererHarness } from './renderer-harness.js';

export { nav } from './renderer-harness.js';

let h: RendererHarness;
/** The API server the window talks to (set in useRendererOverHttp's beforeAll). */
export let t: TestServer;
const shotsDir = process.env.RENDERER_SCREENSHOTS_DIR ?? tempDir('agent-studio-shots-');

/** Starts the harness before the file's tests; closes it after, and says where the screenshots went. */
export function useRendererOverHttp(): void {
  beforeAll(async () => {
    h = await startRendererHarness({ login: { timeoutMs: 30_000 } });
    t = h.t;
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    if (testVideo) fs.rmSync(path.dirname(testVideo), { recursive: true, force: true });
    // Keep the screenshot folder visible in the run log (useful when a test fails).
    if (!process.env.RENDERER_SCREENSHOTS_DIR && fs.existsSync(shotsDir) && fs.readdirSync(shotsDir).length === 0)
      fs.rmSync(shotsDir, { recursive: true, force: true });
    else process.stdout.write(`renderer screenshots: ${shotsDir}\n`);
  });
}

/** A new window on the app, 1360x860, once its main navigation shows. */
export async function openApp(): Promise<OpenApp> {
  const app = await h.openApp();
  await app.page.setViewportSize({ width: 1360, height: 860 });
  return app;
}

/** Writes a file for the "OS file dialog" to answer with on its next opening. */
export function pickNext(name: string, bytes: Buffer): void {
  h.pickNext(name, bytes);
}

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });

/** A real 1-second H.264 MP4 (ffmpeg test pattern), made once. */
let testVideo: string | null = null;
export function makeTestVideo(): string {
  if (testVideo) return testVideo;
  const file = path.join(tempDir('agent-studio-renderer-video-'), 'test.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=1:size=320x180:rate=10',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-movflags',
    '+faststart',
    file,
  ]);
  testVideo = file;
  return file;
}
