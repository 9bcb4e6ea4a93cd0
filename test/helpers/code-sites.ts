/**
 * Harness for the code and link fixture sites (CODE_SITES): a site wired to in-memory outboxes as
 * its sendMail / sendSms, a fresh browser context, and the checks a person would make afterwards.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  startSite,
  type CodeSiteName,
  type FixtureSite,
  type OutboundMail,
  type OutboundSms,
  type SiteOptions,
} from '../fixtures/sites/index.js';
import { Outbox } from '../fixtures/sites/manual-scripts-codes.js';

export interface CodeSiteRun {
  site: FixtureSite;
  page: Page;
  context: BrowserContext;
  mail: Outbox<OutboundMail>;
  sms: Outbox<OutboundSms>;
}

export type CodeSiteTestOptions = Omit<SiteOptions, 'sendMail' | 'sendSms'> & {
  /** Start the site without sendMail / sendSms. */
  noTransport?: boolean;
};

/** A fresh site wired to in-memory outboxes, and a fresh browser context; both torn down afterwards. */
export async function withCodeSite(
  browser: Browser,
  name: CodeSiteName,
  fn: (run: CodeSiteRun) => Promise<void>,
  opts: CodeSiteTestOptions = {},
): Promise<void> {
  const mail = new Outbox<OutboundMail>();
  const sms = new Outbox<OutboundSms>();
  const { noTransport, ...siteOpts } = opts;
  const site = await startSite(name, noTransport ? siteOpts : { ...siteOpts, sendMail: mail.send, sendSms: sms.send });
  const context = await browser.newContext();
  context.setDefaultTimeout(10_000);
  try {
    await fn({ site, page: await context.newPage(), context, mail, sms });
  } finally {
    await context.close();
    await site.close();
  }
}

/**
 * A fresh context holding only the storageState of `from` (none: empty) opens the protected page:
 * signed in it shows loggedInText there; signed out the site sends it to the login page.
 */
export async function expectProtectedPage(
  browser: Browser,
  site: FixtureSite,
  from: BrowserContext | undefined,
  wanted: 'signed in' | 'signed out',
): Promise<void> {
  const context = await browser.newContext(from ? { storageState: await from.storageState() } : {});
  context.setDefaultTimeout(10_000);
  try {
    const page = await context.newPage();
    await page.goto(site.protectedUrl);
    if (wanted === 'signed in') {
      await page.getByText(site.loggedInText).first().waitFor({ state: 'visible' });
      expect(page.url()).toBe(site.protectedUrl);
    } else {
      await page.waitForURL(site.loginUrl);
      expect(await page.getByText(site.loggedInText).count()).toBe(0);
    }
  } finally {
    await context.close();
  }
}

/** The run's page landed on the protected page, and its session works from a storageState. */
export async function expectSignedIn(browser: Browser, run: CodeSiteRun): Promise<void> {
  await run.page.waitForURL(run.site.protectedUrl);
  await run.page.getByText(run.site.loggedInText).first().waitFor({ state: 'visible' });
  await expectProtectedPage(browser, run.site, run.context, 'signed in');
}

/** Resolves once the page shows an inline `role="alert"` error containing `text`. */
export function waitForAlert(page: Page, text: string): Promise<void> {
  return page.getByRole('alert').filter({ hasText: text }).waitFor({ state: 'visible' });
}

/** A 6-digit code that is not `code`. */
export function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}
