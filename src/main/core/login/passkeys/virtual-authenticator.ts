import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { base64ToBase64url, base64urlToBase64, type StoredPasskey } from './passkey-types.js';

/** A credential as CDP's WebAuthn domain spells it (ids, keys and handles in base64). */
interface CdpCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/**
 * A virtual WebAuthn authenticator on one page (Chromium's DevTools `WebAuthn` domain): a platform
 * authenticator (CTAP2, internal transport) with resident keys and user verification that answers
 * every ceremony by itself, as a person touching the sensor would. Attached before the page opens, so
 * a conditional (autofill) request made at page load finds it. It lives in Chromium, so it is the same
 * on every OS; nothing reaches the machine's own authenticators.
 */
export class VirtualAuthenticator {
  /** signCount per credential id (base64url) at the last look. */
  private counts = new Map<string, number>();
  private assertions = 0;

  private constructor(
    private readonly cdp: CDPSession,
    private readonly authenticatorId: string,
  ) {}

  /** Throws when the browser has no DevTools protocol (not Chromium). */
  static async attach(
    ctx: BrowserContext,
    page: Page,
    passkeys: readonly StoredPasskey[],
  ): Promise<VirtualAuthenticator> {
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const auth = new VirtualAuthenticator(cdp, authenticatorId);
    for (const p of passkeys) {
      await cdp.send('WebAuthn.addCredential', {
        authenticatorId,
        credential: {
          credentialId: base64urlToBase64(p.credentialId),
          isResidentCredential: true,
          rpId: p.rpId,
          privateKey: p.privateKey,
          ...(p.userHandle ? { userHandle: p.userHandle } : {}),
          signCount: p.signCount,
        },
      });
      auth.counts.set(p.credentialId, p.signCount);
    }
    return auth;
  }

  private async credentials(): Promise<CdpCredential[]> {
    const { credentials } = (await this.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: this.authenticatorId,
    })) as { credentials: CdpCredential[] };
    return credentials;
  }

  /**
   * Looks at the authenticator: each counter that went up is an assertion it made (a sign-in the page
   * asked for). Returns how many assertions were made so far.
   */
  async look(): Promise<number> {
    for (const c of await this.credentials().catch(() => [])) {
      const id = base64ToBase64url(c.credentialId);
      const before = this.counts.get(id);
      if (before !== undefined && c.signCount > before) this.assertions += c.signCount - before;
      this.counts.set(id, c.signCount);
    }
    return this.assertions;
  }

  /** Assertions made as of the last look. */
  get asserted(): number {
    return this.assertions;
  }

  /** Each credential's counter now, by credential id (base64url). */
  async signCounts(): Promise<Map<string, number>> {
    await this.look();
    return new Map(this.counts);
  }

  /** Credentials the page created (navigator.credentials.create), with their private keys. */
  async created(known: ReadonlySet<string>): Promise<StoredPasskey[]> {
    const now = Date.now();
    return (await this.credentials())
      .filter((c) => !known.has(base64ToBase64url(c.credentialId)) && c.rpId)
      .map((c) => ({
        rpId: c.rpId!,
        credentialId: base64ToBase64url(c.credentialId),
        privateKey: c.privateKey,
        ...(c.userHandle ? { userHandle: c.userHandle } : {}),
        signCount: c.signCount,
        createdAt: now,
      }));
  }

  async dispose(): Promise<void> {
    await this.cdp
      .send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: this.authenticatorId })
      .catch(() => {});
    await this.cdp.detach().catch(() => {});
  }
}
