// The set-up shared by saved-logins*.test.ts: the renderer harness with a real core, a fixture login site, an agent's
// API key, and the helpers that open the Saved logins screen, check a view (axe-core, reflow, screenshots) and draw
// QR codes.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startSite, type FixtureSite } from '../../fixtures/sites/index.js';
import { SHOTS_DIR } from './desktop-app.js';
import { axeViolations, overflowsRight, screenshotsAtSizes, setScheme } from './layout-audit.js';
import { nav, startRendererHarness, type OpenApp, type RendererHarness } from './renderer-harness.js';

const SHOTS = path.join(SHOTS_DIR, 'saved-logins');

// A QR code of this otpauth URI (made with the qrcode package; '#' is a dark module), drawn by the page below.
export const QR_URI = 'otpauth://totp/Classic%20Shop:alice?secret=JBSWY3DPEHPK3PXP&issuer=Classic%20Shop';
export const QR_ROWS = [
  '#######.#.#.#..###.#....#..#..#######',
  '#.....#.#..####..##.#######...#.....#',
  '#.###.#.#..#.##.##.##.#.....#.#.###.#',
  '#.###.#.#.##..#.#..##..#.####.#.###.#',
  '#.###.#..#...##.##.##.#.#..##.#.###.#',
  '#.....#..#.......##.##.##...#.#.....#',
  '#######.#.#.#.#.#.#.#.#.#.#.#.#######',
  '.........####.....#.#..##.###........',
  '#.###.#.##.####.##.#####..#..#...####',
  '.###.......###..#...#.##.#.#.###.###.',
  '####.#####.....##..##.#...#.....##..#',
  '.#..##..#.#..###...#...###..#.#.#.#..',
  '##.##.#####.##..#......#..##.######.#',
  '##...#..###...#...###..#.#.#.#..###..',
  '#..##.#..#..##.######.##..#......#..#',
  '#..#.#.###..#.#.#.#..###...#..#.#.###',
  '.##.####..##.######.##....#..#....#.#',
  '####....#.####.##.#..##......#..#.#.#',
  '..###.##..#.##...##....###.#..##..#.#',
  '###.##.#####.#.###...##..#.##.#..####',
  '.#.##.#.#....#.#..###.#.##....###...#',
  '....#..####..#.###..###.####....##.#.',
  '..#####..#.#..#..#####.#..##...#####.',
  '##.....#.#.#.##.###..###.##.##.####..',
  '##...####.##..##..#...#.#..#...###.#.',
  '#.##.......###..###....##...###....##',
  '.####.#.#..#..##.#..#..###.#.#.##..##',
  '....#......#.#.#.####....#...###.#.##',
  '#...#.#.##.##.#.#.####.#.#..#####....',
  '........#####..#....#.##.####...#....',
  '#######....###...#.....###.##.#.###..',
  '#.....#..###.###..#.###...#.#...#####',
  '#.###.#.#.#.##.#..##...###..#######..',
  '#.###.#.#..##..##.#...#.###.####..##.',
  '#.###.#.#..####.#.#..#####..##...####',
  '#.....#..#.##.###.##.#..#.##..#...#.#',
  '#######.#...##.#.##.....##..#####...#',
];

/** The harness, the login site and the agent's key (set in useSavedLogins's beforeAll). */
export let h: RendererHarness;
export let site: FixtureSite;
export let agentKey: { key: string; prefix: string; id: string };
export const LABEL = 'Classic shop';

/** Starts the harness and the login site and makes the agent's key before the file's tests; closes them after. */
export function useSavedLogins(): void {
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    h = await startRendererHarness({ login: { timeoutMs: 30_000 } });
    site = await startSite('classic-csrf');
    const made = h.t.core.keys.create(h.t.orgId, { name: 'ci agent', scopes: ['login:write', 'credentials:read'] });
    agentKey = { key: made.key, prefix: made.info.prefix, id: made.info.id };
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await h?.close();
  });
}

/**
 * What saved-logins.test.ts leaves for the tests after it, made through the API: the saved login LABEL as its
 * form adds it (the site's password, shared with the agent's key), and the session made from it by the agent.
 */
export async function seedSavedLogin(): Promise<void> {
  const created = await h.t.request('/api/credentials', {
    method: 'POST',
    json: {
      label: LABEL,
      loginUrl: site.loginUrl,
      username: site.credentials.username,
      password: site.credentials.password,
      shareWith: [agentKey.id],
    },
  });
  if (created.status !== 201) throw new Error(`seeding ${LABEL}: ${created.status} ${await created.text()}`);
  const login = await h.t.request('/api/login', { method: 'POST', json: { credential: LABEL }, key: agentKey.key });
  if (login.status !== 200) throw new Error(`logging in with ${LABEL}: ${login.status} ${await login.text()}`);
}

/** A form control by its label, whether or not the label carries the required mark (" *"). */
export const field = (scope: Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${label.replace(/[()]/g, '\\$&')}( \\*)?$`));
export const html = (page: Page) => page.evaluate(() => document.documentElement.outerHTML);
export const screen = (page: Page) => page.getByTestId('screen-saved-logins');
export const row = (page: Page, label: string) => page.getByTestId('saved-login-row').filter({ hasText: label });

export async function openSavedLogins(): Promise<OpenApp> {
  const app = await h.openApp();
  await nav(app.page, 'Saved logins').click();
  await app.page.getByRole('heading', { level: 1, name: 'Saved logins' }).waitFor();
  return app;
}

export async function openDetail(page: Page, label: string) {
  await row(page, label)
    .getByRole('button', { name: `Open ${label}` })
    .click();
  await page.getByTestId('saved-login-detail').waitFor();
}

/**
 * The view as it stands: no axe-core violation in light and dark, no sideways scrolling when the content is
 * 320 CSS px wide, and screenshots at 1280x800 and 900x700 in both schemes (scrolled to `show`).
 */
export async function inspect(page: Page, name: string, show?: Locator, opts: { reflow?: boolean } = {}) {
  for (const scheme of ['light', 'dark'] as const) {
    await setScheme(page, scheme);
    expect(await axeViolations(page), `axe: ${name} in ${scheme}`).toEqual([]);
  }
  if (opts.reflow !== false) await reflows(page, name);
  await screenshotsAtSizes(
    page,
    SHOTS,
    name,
    [
      [1280, 800],
      [900, 700],
    ],
    { show },
  );
}

/** No sideways scrolling in a window 320 CSS px wide (the sidebar folds behind its Menu button there). */
async function reflows(page: Page, name: string) {
  await page.setViewportSize({ width: 320, height: 700 });
  expect(await overflowsRight(page, '#main'), `${name}: scrolls sideways at 320 px`).toEqual({ by: 0, out: [] });
}

/** A PNG drawn by the page: the QR code above, or (rows null) a picture with no QR code in it. */
export async function png(page: Page, rows: string[] | null): Promise<Buffer> {
  const base64 = await page.evaluate((rows) => {
    const scale = 6;
    const quiet = 4;
    const size = rows ? (rows.length + 2 * quiet) * scale : 240;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = size;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, size, size);
    ctx.fillStyle = '#000';
    if (rows) {
      rows.forEach((r, y) =>
        [...r].forEach((c, x) => c === '#' && ctx.fillRect((x + quiet) * scale, (y + quiet) * scale, scale, scale)),
      );
    } else {
      ctx.fillRect(40, 40, 60, 160);
      ctx.beginPath();
      ctx.arc(170, 120, 50, 0, Math.PI * 2);
      ctx.fill();
    }
    const url = canvas.toDataURL('image/png');
    return url.slice(url.indexOf(',') + 1);
  }, rows);
  return Buffer.from(base64, 'base64');
}
