import { LOGIN_FAILURE_STATUS } from '../../../../shared/errors.js';
import { AppError } from '../../errors.js';
import { noopLogSink, type LogSink } from '../../logger.js';
import { DEFAULT_LOGIN_TIMEOUT_MS, LoginEngine } from '../flow/login-engine.js';
import type { ContextProvider } from '../browser/lazy-browser-pool.js';
import type { Vault, VaultCaller } from './vault.js';
import { createPasskeyOnSite } from '../passkeys/passkey-on-site.js';
import { rpIdFitsOrigins } from '../passkeys/passkey-types.js';
import { VirtualAuthenticator } from '../passkeys/virtual-authenticator.js';

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
            const { passkey, looked } = await createPasskeyOnSite(page, authenticator, result.finalUrl, (line) =>
              this.log.debug({ step: line }, 'passkey: create'),
            );
            if (!passkey)
              throw new AppError(
                422,
                'passkey_flow_not_found',
                `No "create a passkey" control found after signing in (looked at ${looked.length} page(s): ${looked.join(', ')}).`,
                { pages: looked },
              );
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
}
