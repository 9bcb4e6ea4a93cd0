// What an agent does through the MCP tools, shared by the stdio and the Streamable HTTP tests.
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { FixtureSite } from '../fixtures/sites/index.js';
import { media } from './media-fixtures.js';

export const MCP_TOOL_NAMES = [
  'create_generation',
  'generate_video',
  'get_generation',
  'get_template',
  'list_sessions',
  'list_templates',
  'login',
  'refresh_session',
  'upload_file',
  'validate_session',
  'wait_for_generation',
];

export type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

export const textOf = (r: ToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');

/** A successful tool result's structured content (fails the test with the tool's error text otherwise). */
export function dataOf<T = Record<string, unknown>>(r: ToolResult): T {
  expect(r.isError ? textOf(r) : '').toBe('');
  expect(r.structuredContent).toBeTruthy();
  return r.structuredContent as T;
}

export const loginArgs = (site: FixtureSite, over: Record<string, unknown> = {}) => ({
  cred: { username: site.credentials.username, password: site.credentials.password },
  domain: site.loginUrl,
  useCache: false,
  ...over,
});

export interface GeneratedVideo {
  generationId: string;
  progress: number[];
  videoUrl: string;
}

/**
 * upload_file (a real PNG on disk) -> generate_video (image-to-video-animate) -> wait_for_generation with a
 * progress token -> get_generation; returns what the agent ends up with.
 */
export async function generateThroughTools(client: Client, dir: string): Promise<GeneratedVideo> {
  const file = path.join(dir, 'photo.png');
  fs.writeFileSync(file, media.png());
  const uploaded = dataOf<{ s3_key: string; content_type: string }>(
    await callTool(client, 'upload_file', { path: file }),
  );
  expect(uploaded.content_type).toBe('image/png');
  expect(uploaded.s3_key).toMatch(/^uploads\//);

  const started = dataOf<{ generations: { generation_id: string; status: string }[]; credits_charged: number }>(
    await callTool(client, 'generate_video', {
      template_id: 'image-to-video-animate',
      variables: { photo: uploaded.s3_key, motion: 'slow zoom' },
    }),
  );
  expect(started.generations).toHaveLength(1);
  expect(started.credits_charged).toBeGreaterThan(0);
  const generationId = started.generations[0].generation_id;

  const progress: number[] = [];
  const waited = (await client.callTool(
    { name: 'wait_for_generation', arguments: { id: generationId, timeout_sec: 600 } },
    undefined,
    { onprogress: (p) => void progress.push(p.progress), timeout: 600_000, resetTimeoutOnProgress: true },
  )) as ToolResult;
  expect(dataOf<{ status: string }>(waited).status).toBe('completed');
  // MCP progress only goes up.
  expect(progress).toEqual([...new Set(progress)].sort((a, b) => a - b));

  const generation = dataOf<{ status: string; video_url: string | null; progress: number }>(
    await callTool(client, 'get_generation', { id: generationId }),
  );
  expect(generation.status).toBe('completed');
  expect(generation.video_url).toBeTruthy();
  return { generationId, progress, videoUrl: generation.video_url as string };
}

/** Downloads the video as an agent would and checks it is an MP4 (ISO BMFF `ftyp` box first). */
export async function expectMp4(url: string): Promise<void> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('video/mp4');
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.length).toBeGreaterThan(1000);
  expect(bytes.toString('latin1', 4, 8)).toBe('ftyp');
}
