// What an agent does through the MCP tools, shared by the stdio and the Streamable HTTP tests.
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { Core } from '../../src/main/core/create-core.js';
import type { FixtureSite } from '../fixtures/sites/index.js';
import { media } from './media-fixtures.js';

/** The tools over HTTP: no tool there touches the server's files. */
export const MCP_HTTP_TOOL_NAMES = [
  'create_generation',
  'generate_video',
  'get_generation',
  'get_template',
  'list_credentials',
  'list_sessions',
  'list_templates',
  'login',
  'presign_upload',
  'quote_video',
  'refresh_session',
  'validate_session',
  'wait_for_generation',
  'wait_for_login',
];
/** The tools over stdio: the same plus upload_file (files of the MCP files folder). */
export const MCP_STDIO_TOOL_NAMES = [...MCP_HTTP_TOOL_NAMES, 'upload_file'].sort();

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

/** The label of the saved login saveSiteLogin makes: agents log in by it (the MCP login tool takes no cred). */
export const SITE_LOGIN = 'Fixture site';
/** A saved login of the same site whose password is wrong. */
export const WRONG_LOGIN = 'Fixture site (wrong password)';

/** Saves the site's login (and one with a wrong password) in the organization, as a person would. */
export async function saveSiteLogins(core: Core, orgId: string, site: FixtureSite): Promise<void> {
  const saved = core.login.vault.savedLogins;
  const base = { loginUrl: site.loginUrl, loginMethod: 'password', username: site.credentials.username } as const;
  await saved.create(
    orgId,
    { ...base, label: SITE_LOGIN, password: site.credentials.password, shareWith: 'all' },
    'api',
  );
  await saved.create(orgId, { ...base, label: WRONG_LOGIN, password: 'wrong-Pq83', shareWith: 'all' }, 'api');
}

/** Saves one login of `site` under `label` (a site that stops for a person: captcha, mfa). */
export async function saveLoginAs(core: Core, orgId: string, site: FixtureSite, label: string): Promise<void> {
  await core.login.vault.savedLogins.create(
    orgId,
    {
      label,
      loginUrl: site.loginUrl,
      loginMethod: 'password',
      username: site.credentials.username,
      password: site.credentials.password,
      shareWith: 'all',
    },
    'api',
  );
}

export const loginArgs = (_site: FixtureSite, over: Record<string, unknown> = {}) => ({
  credential: SITE_LOGIN,
  useCache: false,
  ...over,
});

export interface GeneratedVideo {
  generationId: string;
  progress: number[];
  videoUrl: string;
}

/** presign_upload, then the PUT of the bytes from the agent's side (what an agent over HTTP does). */
async function presignAndPut(client: Client, bytes: Buffer): Promise<{ s3_key: string; content_type: string }> {
  const presigned = dataOf<{ s3_key: string; upload_url: string; content_type: string }>(
    await callTool(client, 'presign_upload', { content_type: 'image/png', file_name: 'photo.png' }),
  );
  const put = await fetch(presigned.upload_url, {
    method: 'PUT',
    headers: { 'content-type': presigned.content_type },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  return { s3_key: presigned.s3_key, content_type: presigned.content_type };
}

/**
 * An uploaded PNG — upload_file from `filesDir` (stdio) or presign_upload and a PUT (no `filesDir`) — then
 * generate_video (image-to-video-animate) -> wait_for_generation with a progress token -> get_generation;
 * returns what the agent ends up with.
 */
export async function generateThroughTools(client: Client, filesDir?: string): Promise<GeneratedVideo> {
  let uploaded: { s3_key: string; content_type: string };
  if (filesDir) {
    fs.writeFileSync(path.join(filesDir, 'photo.png'), media.png());
    uploaded = dataOf(await callTool(client, 'upload_file', { path: 'photo.png' }));
  } else uploaded = await presignAndPut(client, media.png());
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
