import type { Page } from 'playwright-core';
import { LOGIN_FAILURE_STATUS } from '../../../../shared/errors.js';
import { AppError } from '../../errors.js';
import { noopLogSink, type LogSink } from '../../logger.js';
import { DEFAULT_LOGIN_TIMEOUT_MS, LoginEngine } from '../login-engine.js';
import type { ContextProvider } from '../login.service.js';
import { safeUrl } from '../login-types.js';
import type { Vault, VaultCaller } from './vault.js';
import { findPasskeyControls, passkeyControlLocator } from '../passkeys/passkey-buttons.js';
import { rpIdFitsOrigins, type StoredPasskey } from '../passkeys/passkey-types.js';
import { findSettingsLinks, waitForQuietPage } from '../passkeys/settings-pages.js';
import { VirtualAuthenticator } from '../passkeys/virtual-authenticator.js';

/** Pages looked at for an "add a passkey" control: where the login landed, then settings pages linked from it. */
const MAX_PAGES = 5;
/** How long the authenticator is given to make the credential after the click. */
const CREATE_MS = 10_000;

export interface PasskeyCreated {
  rp_id: string;
  credential_id: string;
}

/**
 * POST /api/credentials/{id}/passkeys: logs in with the saved login's password, finds the site's "create a
 * passkey" flow (a control on the page after the login, or on a security / settings page linked from it),
 * lets a virtual authenticator answer navigator.credentials.create, and keeps the new passkey in the saved
 * login (private key in the secret store). Where people make passkeys: on the site, signed in.
 */
export class PasskeyCreator {
  private readonly engine: LoginEngine;
  private readonly log: LogSink;

  constructor(private readonly deps: { browsers: ContextProvider; vault: Vault; log?: LogSink; timeoutMs?: number }) {
    this.log = deps.log ?? noopLogSink();
    this.engine = new LoginEngine({ log: this.log });
  }

  async create(who: VaultCaller, ref: string, domain?: string): Promise<PasskeyCreated> {
    const { vault } = this.deps;
    const saved = vault.savedLogins.get(who.orgId, ref);
    const { req, secretOrigins } = await vault.loginRequest(saved, {
      domain,
      useCache: false,
      include: [],
      additionalFields: {},
      interactive: false,
      interactiveTimeoutSec: 300,
      async: false,
    });
    if (!req.cred.password)
      throw new AppError(
        400,
        'validation_error',
        `Creating a passkey signs in with the saved login's password first, and "${saved.label}" has none.`,
        { field: 'password' },
      );
    await this.deps.browsers.checkUrl?.(req.domain, 'domain');
    const origins = saved.origins.length ? saved.origins : [req.domain];
    return vault.use(
      who,
      saved,
      'add_passkey',
      () =>
        this.deps.browsers.withContext(async (ctx) => {
          const result = await this.engine.login(ctx, {
            url: req.domain,
            username: req.cred.username,
            password: req.cred.password,
            additionalFields: req.additionalFields,
            timeoutMs: this.deps.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS,
            method: 'password',
            ...(secretOrigins ? { secretOrigins } : {}),
          });
          if (!result.ok) {
            const { status, code } = LOGIN_FAILURE_STATUS[result.reason];
            throw new AppError(
              status,
              code.toLowerCase(),
              `Signing in to create the passkey failed: ${result.message}`,
              {
                reason: result.reason,
                steps: result.steps,
              },
            );
          }
          const page = await ctx.newPage();
          const authenticator = await VirtualAuthenticator.attach(ctx, page, []);
          try {
            const passkey = await this.createOnSite(page, authenticator, result.finalUrl);
            if (!rpIdFitsOrigins(passkey.rpId, origins))
              throw new AppError(
                422,
                'credential_origin_mismatch',
                `The site made a passkey for ${passkey.rpId}, which is not among the saved login's origins: not kept.`,
                { reason: 'credential_origin_mismatch' },
              );
            await vault.savedLogins.addPasskey(saved, passkey);
            return { rp_id: passkey.rpId, credential_id: passkey.credentialId };
          } finally {
            await authenticator.dispose();
          }
        }),
      new URL(req.domain).origin,
    );
  }

  /** The page after the login, then settings pages linked from it, until a "create a passkey" control makes one. */
  private async createOnSite(page: Page, authenticator: VirtualAuthenticator, start: string): Promise<StoredPasskey> {
    const queue = [start];
    const seen = new Set<string>();
    const tried = new Set<string>();
    while (queue.length && seen.size < MAX_PAGES) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 30_000 }).catch(() => undefined);
      await waitForQuietPage(page);
      for (const control of (await findPasskeyControls(page)).filter((c) => c.kind === 'create')) {
        if (tried.has(control.text)) continue;
        tried.add(control.text);
        this.log.debug({ url: safeUrl(page.url()), control: control.text }, 'passkey: clicking create');
        await passkeyControlLocator(control)
          .click({ timeout: 5000 })
          .catch(() => undefined);
        const made = await waitForCredential(authenticator);
        if (made) {
          // The page posts the new credential to the site: let that finish before the browser goes.
          await waitForQuietPage(page);
          return made;
        }
      }
      for (const link of await findSettingsLinks(page)) if (!seen.has(link)) queue.push(link);
    }
    throw new AppError(
      422,
      'passkey_flow_not_found',
      `No "create a passkey" control found after signing in (looked at ${seen.size} page(s): ${[...seen].map(safeUrl).join(', ')}).`,
      { pages: [...seen].map(safeUrl) },
    );
  }
}

async function waitForCredential(authenticator: VirtualAuthenticator): Promise<StoredPasskey | undefined> {
  const until = Date.now() + CREATE_MS;
  while (Date.now() < until) {
    const [made] = await authenticator.created(new Set());
    if (made) return made;
    await new Promise((r) => setTimeout(r, 150));
  }
  return undefined;
}
