// The Saved logins screen end to end: the built renderer in Chromium, every call through the IPC contract to a
// real core over HTTP (the app's own dispatcher, Reveal / Copy / Test now answered by main's vault channels), a
// fixture login site on 127.0.0.1 and the real OS keychain (scripts/with-keyring.sh). Only the clipboard is a
// stand-in the test reads. Each view is checked with axe-core in light and dark, in a window 320 CSS px wide,
// and photographed (1280x800 and 900x700, light and dark) into /tmp/shots/saved-logins/ for people to look at.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type FixtureSite } from '../fixtures/sites/index.js';
import {
  dropFiles,
  nav,
  pasteFiles,
  startRendererHarness,
  type OpenApp,
  type RendererHarness,
} from './support/renderer-harness.js';
import { SHOTS_DIR } from './support/desktop-app.js';
import { axeViolations, overflowsRight, setScheme } from './support/layout-audit.js';
import { tempDir } from '../helpers/temp-dir.js';

const SHOTS = path.join(SHOTS_DIR, 'saved-logins');

// A QR code of this otpauth URI (made with the qrcode package; '#' is a dark module), drawn by the page below.
const QR_URI = 'otpauth://totp/Classic%20Shop:alice?secret=JBSWY3DPEHPK3PXP&issuer=Classic%20Shop';
const QR_ROWS = [
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

let h: RendererHarness;
let site: FixtureSite;
let agentKey: { key: string; prefix: string };
const LABEL = 'Classic shop';

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  h = await startRendererHarness({ login: { timeoutMs: 30_000 } });
  site = await startSite('classic-csrf');
  const made = h.t.core.keys.create(h.t.orgId, { name: 'ci agent', scopes: ['login:write', 'credentials:read'] });
  agentKey = { key: made.key, prefix: made.info.prefix };
}, 120_000);
afterAll(async () => {
  await site?.close();
  await h?.close();
});

/** A form control by its label, whether or not the label carries the required mark (" *"). */
const field = (scope: Locator, label: string) =>
  scope.getByLabel(new RegExp(`^${label.replace(/[()]/g, '\\$&')}( \\*)?$`));
const html = (page: Page) => page.evaluate(() => document.documentElement.outerHTML);
const screen = (page: Page) => page.getByTestId('screen-saved-logins');
const row = (page: Page, label: string) => page.getByTestId('saved-login-row').filter({ hasText: label });

async function openSavedLogins(): Promise<OpenApp> {
  const app = await h.openApp();
  await nav(app.page, 'Saved logins').click();
  await app.page.getByRole('heading', { level: 1, name: 'Saved logins' }).waitFor();
  return app;
}

async function openDetail(page: Page, label: string) {
  await row(page, label)
    .getByRole('button', { name: `Open ${label}` })
    .click();
  await page.getByTestId('saved-login-detail').waitFor();
}

/**
 * The view as it stands: no axe-core violation in light and dark, no sideways scrolling when the content is
 * 320 CSS px wide, and screenshots at 1280x800 and 900x700 in both schemes (scrolled to `show`).
 */
async function inspect(page: Page, name: string, show?: Locator, opts: { reflow?: boolean } = {}) {
  for (const scheme of ['light', 'dark'] as const) {
    await setScheme(page, scheme);
    expect(await axeViolations(page), `axe: ${name} in ${scheme}`).toEqual([]);
  }
  if (opts.reflow !== false) await reflows(page, name);
  for (const [width, height] of [
    [1280, 800],
    [900, 700],
  ]) {
    await page.setViewportSize({ width, height });
    await show?.scrollIntoViewIfNeeded();
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      await page.screenshot({
        path: path.join(SHOTS, `${name}-${width}x${height}-${scheme}.png`),
        animations: 'disabled',
      });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await setScheme(page, 'light');
}

/** No sideways scrolling in a window 320 CSS px wide (the sidebar folds behind its Menu button there). */
async function reflows(page: Page, name: string) {
  await page.setViewportSize({ width: 320, height: 700 });
  expect(await overflowsRight(page, '#main'), `${name}: scrolls sideways at 320 px`).toEqual({ by: 0, out: [] });
}

/** A PNG drawn by the page: the QR code above, or (rows null) a picture with no QR code in it. */
async function png(page: Page, rows: string[] | null): Promise<Buffer> {
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

describe('Saved logins over the IPC contract and a real core', () => {
  it('starts empty, adds a saved login through the form (errors on their fields) and lists it with a search', async () => {
    const { page, context, problems } = await openSavedLogins();
    try {
      const empty = page.getByTestId('saved-logins-empty');
      expect(await empty.innerText()).toContain('agents log in by its name and never see the password');
      await inspect(page, 'list-empty');
      await empty.getByRole('button', { name: 'Add a saved login' }).click();
      const form = page.getByRole('form', { name: 'Add a saved login' });
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Add a saved login');

      // Sent empty: what the form can see itself is marked on the fields, and the first one has the focus.
      await form.getByRole('button', { name: 'Save login' }).click();
      const label = field(form, 'Label');
      await expect.poll(() => label.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await field(form, 'Login page URL').getAttribute('aria-invalid')).toBe('true');
      expect(await field(form, 'Password').getAttribute('aria-invalid')).toBe('true');

      await label.fill(LABEL);
      await field(form, 'Login page URL').fill(site.loginUrl);
      // The origins default to the login page's.
      expect(await form.getByTestId('origins-default').innerText()).toContain(site.origin);
      await field(form, 'Username').fill(site.credentials.username);
      const password = field(form, 'Password');
      await password.fill(site.credentials.password);
      expect(await password.getAttribute('type')).toBe('password');
      await form.getByRole('button', { name: 'Show password' }).click();
      expect(await password.getAttribute('type')).toBe('text');
      await form.getByRole('button', { name: 'Hide password' }).click();
      expect(await password.getAttribute('type')).toBe('password');

      // Shared with one key, picked by its name and prefix.
      await form.getByRole('radio', { name: /Only the keys I choose/ }).check();
      const key = form.getByRole('checkbox', { name: new RegExp(`ci agent ${agentKey.prefix}`) });
      await key.check();
      await inspect(page, 'form-add', page.getByRole('heading', { level: 2, name: 'Add a saved login' }));
      await inspect(page, 'form-add-sharing', form.getByRole('group', { name: 'Who may use it' }));
      await form.getByRole('button', { name: 'Save login' }).click();

      const detail = page.getByTestId('saved-login-detail');
      await detail.getByRole('heading', { name: LABEL }).waitFor();
      expect(await detail.innerText()).toContain(`ci agent (${agentKey.prefix}…)`);
      expect(await html(page)).not.toContain(site.credentials.password);

      await page.getByRole('button', { name: 'All saved logins' }).click();
      const listed = row(page, LABEL);
      await listed.waitFor();
      const cells = await listed.locator('td').allInnerTexts();
      expect(cells.slice(0, 7)).toEqual([
        LABEL,
        `${new URL(site.origin).host}\n${site.origin}`,
        site.credentials.username,
        'Password',
        expect.stringContaining('Password'),
        '1 key',
        'Never',
      ]);
      // The focus came back to the row it was opened from.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Open ${LABEL}`);

      const search = page.getByRole('searchbox', { name: /Search saved logins/ });
      await search.fill('nothing-like-it');
      await page.getByTestId('saved-logins-no-match').waitFor();
      await search.fill(new URL(site.origin).host);
      await listed.waitFor();
      await search.fill(site.credentials.username.toUpperCase());
      await listed.waitFor();
      await search.fill('');

      // What only the service knows lands on its field: a taken label, then a TOTP secret that is not one.
      await page.getByRole('button', { name: 'Add saved login' }).click();
      const again = page.getByRole('form', { name: 'Add a saved login' });
      await field(again, 'Label').fill('classic SHOP');
      await field(again, 'Login page URL').fill(site.loginUrl);
      await field(again, 'Password').fill('x');
      await field(again, 'Authenticator (TOTP) secret').fill('not base32 !!');
      await again.getByRole('button', { name: 'Save login' }).click();
      const taken = field(again, 'Label');
      await expect.poll(() => taken.getAttribute('aria-invalid')).toBe('true');
      expect(await again.innerText()).toContain('already exists');
      await taken.fill('Another shop');
      await again.getByRole('button', { name: 'Save login' }).click();
      const totp = field(again, 'Authenticator (TOTP) secret');
      await expect.poll(() => totp.getAttribute('aria-invalid')).toBe('true');
      // The service's own words, under the field.
      expect(await totp.evaluate((el) => el.closest('.field')?.querySelector('.field-error')?.textContent)).toMatch(
        /otpauth/i,
      );
      await inspect(page, 'form-server-errors', totp);
      await again.getByRole('button', { name: 'Cancel' }).click();
      await listed.waitFor();
      expect(await page.getByTestId('saved-login-row').count()).toBe(1);
      await inspect(page, 'list', listed);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('reads the TOTP secret from a pasted or dropped QR code image, and says so when a picture has none', async () => {
    const { page, context, problems } = await openSavedLogins();
    try {
      await page.getByRole('button', { name: 'Add saved login' }).click();
      const form = page.getByRole('form', { name: 'Add a saved login' });
      const zone = form.getByRole('group', { name: /drop or paste a QR code image/ });
      const totp = field(form, 'Authenticator (TOTP) secret');

      await pasteFiles(zone, [{ name: 'photo.png', type: 'image/png', bytes: await png(page, null) }]);
      const error = form.getByTestId('qr-error');
      await error.waitFor();
      expect(await error.innerText()).toContain('No QR code was found');
      expect(await totp.inputValue()).toBe('');

      await dropFiles(page, zone, [{ name: 'qr.png', type: 'image/png', bytes: await png(page, QR_ROWS) }], {
        fromDisk: false,
      });
      await expect.poll(() => totp.inputValue()).toBe(QR_URI);
      expect(await error.count()).toBe(0);
      expect(await form.innerText()).toContain('Read the QR code of Classic Shop:alice.');
      // Masked like a password until the person asks to see it.
      expect(await totp.getAttribute('type')).toBe('password');
      expect(await html(page)).not.toContain('JBSWY3DPEHPK3PXP');
      await form.getByRole('button', { name: 'Cancel' }).click();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('reveals and hides a secret, copies it through main, and the page never held it before Reveal', async () => {
    const { page, context, bridge, problems } = await openSavedLogins();
    try {
      await openDetail(page, LABEL);
      expect(await html(page)).not.toContain(site.credentials.password);
      await inspect(page, 'detail', page.getByTestId('saved-login-detail'));
      const secret = page.getByTestId('secret-row').filter({ hasText: 'Password' });
      await secret.getByRole('button', { name: 'Copy password' }).click();
      await expect.poll(() => bridge.copiedSecrets).toEqual([site.credentials.password]);
      expect(bridge.copied).toEqual([]);
      await expect
        .poll(() => page.getByTestId('secret-status').innerText())
        .toBe('Password copied — cleared from the clipboard in 30 s.');
      expect(await html(page)).not.toContain(site.credentials.password);

      await secret.getByRole('button', { name: 'Reveal password' }).click();
      await expect.poll(() => secret.getByTestId('revealed-value').innerText()).toBe(site.credentials.password);
      await secret.getByRole('button', { name: 'Hide password' }).click();
      await secret.getByText('Hidden').waitFor();
      expect(await html(page)).not.toContain(site.credentials.password);

      // Left revealed, it goes away when the person leaves the page.
      await secret.getByRole('button', { name: 'Reveal password' }).click();
      await secret.getByTestId('revealed-value').waitFor();
      await nav(page, 'Sessions').click();
      await nav(page, 'Saved logins').click();
      await page.getByTestId('saved-login-detail').waitFor();
      expect(await html(page)).not.toContain(site.credentials.password);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('tests the saved login now with live steps; the use log and the session made from it show it', async () => {
    const { page, context, bridge, problems } = await openSavedLogins();
    try {
      await openDetail(page, LABEL);
      const test = page.getByTestId('test-now');
      await test.getByRole('button', { name: 'Test now' }).click();
      const outcome = test.getByTestId('test-outcome');
      await outcome.waitFor({ timeout: 60_000 });
      expect(await outcome.getAttribute('data-ok')).toBe('true');
      expect(await test.getByTestId('login-step').count()).toBeGreaterThan(1);
      const loginId = await test.getByTestId('test-progress').getAttribute('data-login-id');
      expect(
        bridge.sent.some((e) => e.event === 'login:step' && (e.payload as { loginId: string }).loginId === loginId),
      ).toBe(true);
      expect(await test.getByTestId('test-announcement').innerText()).toMatch(/^Logged in: \d+ cookies? in/);
      // Scrolled into view when it finished.
      await expect
        .poll(() => outcome.evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight))
        .toBe(true);

      // An agent's key uses it too: the use log names the key.
      const res = await h.t.request('/api/login', { method: 'POST', json: { credential: LABEL }, key: agentKey.key });
      expect(res.status).toBe(200);
      const uses = page.getByRole('region', { name: 'Use log' });
      await uses.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => uses.getByTestId('use-row').count()).toBe(2);
      const [agent, mine] = await uses.getByTestId('use-row').allInnerTexts();
      expect(mine).toContain('This app / background check');
      expect(mine).toContain('desktop_test');
      expect(mine).toContain('success');
      expect(agent).toContain(`ci agent (${agentKey.prefix}…)`);
      expect(agent).toContain('login');

      const made = page.getByRole('region', { name: 'Sessions made from it' }).getByTestId('login-session-row');
      await expect.poll(() => made.count()).toBe(1);
      await inspect(page, 'detail-use-log', uses);

      // The session links back to its saved login.
      await made.getByRole('button', { name: /^Open in Sessions/ }).click();
      const link = page.getByTestId('session-detail').getByTestId('session-saved-login');
      expect(await link.innerText()).toBe(LABEL);
      // The Sessions screen's own layout is not this screen's: its reflow is not judged here.
      await inspect(page, 'session-detail-saved-login', link, { reflow: false });
      await link.click();
      await page.getByTestId('saved-login-detail').getByRole('heading', { name: LABEL }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('edits without touching the password when it is left empty; Remove takes a secret away', async () => {
    const { page, context, problems } = await openSavedLogins();
    try {
      await openDetail(page, LABEL);
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const form = page.getByRole('form', { name: `Edit “${LABEL}”` });
      const password = field(form, 'Password');
      expect(await password.inputValue()).toBe('');
      expect(await password.getAttribute('placeholder')).toBe('Saved — leave empty to keep');
      await field(form, 'Notes').fill('recovery: 1234-5678');
      await form.getByRole('radio', { name: /All keys of the organization/ }).check();
      // One more origin: the list starts from the default, which stays.
      await form.getByRole('button', { name: 'Add an origin' }).click();
      const second = form.getByRole('textbox', { name: 'Origin 2' });
      await expect.poll(() => second.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await form.getByRole('textbox', { name: 'Origin 1' }).inputValue()).toBe(site.origin);
      await second.fill('https://accounts.example.test/signin');
      // An additional field, its value masked and never in the markup.
      await form.getByRole('button', { name: 'Add a field' }).click();
      await form.getByRole('textbox', { name: 'Name of field 1' }).fill('pin');
      await form.getByLabel('Value of pin').fill('9931');
      await inspect(page, 'form-edit', password);
      await inspect(page, 'form-edit-origins-fields', form.getByRole('group', { name: 'Additional fields' }));
      expect(await html(page)).not.toContain('9931');
      await form.getByRole('button', { name: 'Save changes' }).click();
      const detail = page.getByTestId('saved-login-detail');
      await detail.getByTestId('secret-row').filter({ hasText: 'Notes' }).waitFor();
      expect(await detail.innerText()).toContain('All keys of the organization');
      expect(await detail.innerText()).toContain('https://accounts.example.test');
      const kept = await h.t.request(`/api/credentials/${encodeURIComponent(LABEL)}`);
      expect(await kept.json()).toMatchObject({
        secrets: ['password', 'additionalFields', 'notes'],
        additionalFieldNames: ['pin'],
        origins: [site.origin, 'https://accounts.example.test'],
        shareWith: 'all',
      });
      const secret = detail.getByTestId('secret-row').filter({ hasText: 'Password' });
      await secret.getByRole('button', { name: 'Reveal password' }).click();
      await expect.poll(() => secret.getByTestId('revealed-value').innerText()).toBe(site.credentials.password);

      // Again: the saved field is listed by name (its value left empty keeps it); Remove takes the notes away.
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      expect(await form.innerText()).toContain('Saved: pin — leave the values empty to keep them.');
      await form.getByRole('button', { name: 'Remove the saved notes' }).click();
      expect(await form.innerText()).toContain('Will be removed when you save.');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await detail.waitFor();
      await expect.poll(() => detail.getByTestId('secret-row').allInnerTexts()).toHaveLength(2);
      const after = await h.t.request(`/api/credentials/${encodeURIComponent(LABEL)}`);
      expect(await after.json()).toMatchObject({ secrets: ['password', 'additionalFields'] });
      const pin = detail.getByTestId('secret-row').filter({ hasText: 'Field “pin”' });
      await pin.getByRole('button', { name: 'Reveal field “pin”' }).click();
      await expect.poll(() => pin.getByTestId('revealed-value').innerText()).toBe('9931');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('imports a Chrome export: a preview with counts and reasons, then the import; a bad file names its line', async () => {
    const { page, context, problems } = await openSavedLogins();
    try {
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const form = page.getByRole('form', { name: 'Import saved logins' });
      const file = form.getByTestId('import-file');
      await file.setInputFiles({
        name: 'broken.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('name,url,username,password\n"Unclosed,https://x.example,u,p\n'),
      });
      await form.getByRole('button', { name: 'Preview' }).click();
      await page.getByRole('alert').filter({ hasText: 'not a valid chrome export' }).waitFor();
      expect(await page.getByTestId('import-where').innerText()).toMatch(/^Line 2/);

      const csv = [
        'name,url,username,password',
        `Classic,${site.origin}/,${site.credentials.username},${site.credentials.password}`,
        'Wiki,https://wiki.example.test/login,ada,wiki-pass-1',
        'Phone app,android://abc@com.example.app/,bob,app-pass-2',
      ].join('\n');
      await file.setInputFiles({ name: 'Chrome Passwords.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await form.getByRole('button', { name: 'Preview' }).click();
      const preview = page.getByTestId('import-preview');
      await preview.waitFor();
      expect(await preview.getByTestId('import-counts').innerText()).toBe(
        '1 new · 1 merged into saved logins · 1 skipped',
      );
      const items = await preview.getByTestId('import-item').allInnerTexts();
      expect(items).toHaveLength(3);
      expect(items[0]).toMatch(/Merge/);
      expect(items[1]).toMatch(/New/);
      expect(items[2]).toMatch(/Skip/);
      // Nothing saved yet.
      expect(((await (await h.t.request('/api/credentials')).json()) as { data: unknown[] }).data).toHaveLength(1);
      await inspect(page, 'import-preview', preview);

      await form.getByRole('button', { name: 'Import 2' }).click();
      const done = page.getByTestId('import-done');
      await done.waitFor();
      expect(await done.getByTestId('import-counts').innerText()).toBe(
        '1 new · 1 merged into saved logins · 1 skipped',
      );
      for (const secret of ['wiki-pass-1', 'app-pass-2', site.credentials.password]) {
        expect(await html(page)).not.toContain(secret);
      }
      await form.getByRole('button', { name: 'Done' }).click();
      await row(page, 'Wiki').waitFor();
      expect(await page.getByTestId('saved-login-row').count()).toBe(2);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists a saved login’s passkeys and exports them to a file the person picks; the page never holds a key', async () => {
    const created = await h.t.request('/api/credentials', {
      method: 'POST',
      json: { label: 'Keyhaven', loginUrl: 'https://keyhaven.example/login', loginMethod: 'passkey', username: 'ada' },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const key = (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64');
    const vault = h.t.core.login.vault.savedLogins;
    const credentialId = crypto.randomBytes(16).toString('base64url');
    await vault.addPasskey(vault.get(h.t.orgId, id), {
      rpId: 'keyhaven.example',
      credentialId,
      privateKey: key,
      userHandle: crypto.randomBytes(8).toString('base64'),
      signCount: 3,
      createdAt: Date.now(),
    });
    const { page, context, problems } = await openSavedLogins();
    try {
      await openDetail(page, 'Keyhaven');
      await expect.poll(() => page.getByTestId('saved-login-passkeys').innerText()).toContain('keyhaven.example');
      await inspect(page, 'detail-passkeys', page.getByTestId('saved-login-passkeys'));
      const file = path.join(tempDir('agent-studio-passkeys-'), 'keyhaven-passkeys.json');
      h.saveNext(file);
      await page.getByRole('button', { name: 'Export passkeys…' }).click();
      await page.getByText('1 passkey saved to keyhaven-passkeys.json.').waitFor();
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const exported = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(exported).toMatchObject({
        format: 'agent-studio-passkeys',
        version: 1,
        saved_login: { label: 'Keyhaven', username: 'ada' },
        passkeys: [{ rpId: 'keyhaven.example', credentialId, privateKey: key, signCount: 3, isResidentKey: true }],
      });
      // The key went from the vault to the file: never into the page.
      expect(await html(page)).not.toContain(key);
      // Cancelled in the dialog: nothing written, nothing said.
      h.saveNext(null);
      await page.getByRole('button', { name: 'Export passkeys…' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Export passkeys…' }).isEnabled()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await h.t.request(`/api/credentials/${id}`, { method: 'DELETE' });
    }
  });

  it('deletes after a confirmation that says the sessions stay but can no longer be renewed', async () => {
    const { page, context, problems } = await openSavedLogins();
    try {
      const sessionsBefore = ((await (await h.t.request('/api/sessions')).json()) as { data: unknown[] }).data.length;
      await openDetail(page, LABEL);
      await page.getByRole('button', { name: 'Delete…' }).click();
      const confirm = page.getByTestId('delete-confirm');
      expect(await confirm.innerText()).toMatch(/sessions? made from it stays? cached but can no longer be renewed/);
      // Cancel (here with Escape) changes nothing and gives the focus back.
      await page.keyboard.press('Escape');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Delete…');
      await page.getByRole('button', { name: 'Delete…' }).click();
      await inspect(page, 'detail-delete-confirm', confirm);
      await confirm.getByRole('button', { name: 'Delete saved login' }).click();
      await page.getByTestId('saved-login-row').first().waitFor();
      expect(await row(page, LABEL).count()).toBe(0);
      // The focus is not lost with the page it was on: it lands on the list.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('saved-logins-list-title');
      expect((await h.t.request(`/api/credentials/${encodeURIComponent(LABEL)}`)).status).toBe(404);
      const sessionsAfter = ((await (await h.t.request('/api/sessions')).json()) as { data: unknown[] }).data.length;
      expect(sessionsAfter).toBe(sessionsBefore);
      expect(await screen(page).count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
