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
  /** While the top-level page is off the saved login's origins, the credentials are taken out (see gate). */
  private suspended = false;
  /** One change of the credentials at a time (a navigation's suspend and a commit's resume may overlap). */
  private gateChain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly cdp: CDPSession,
    private readonly authenticatorId: string,
    private readonly passkeys: readonly StoredPasskey[],
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
    const auth = new VirtualAuthenticator(cdp, authenticatorId, passkeys);
    for (const p of passkeys) auth.counts.set(p.credentialId, p.signCount);
    await auth.addCredentials();
    return auth;
  }

  /** Puts the passkeys in the authenticator, each with its counter as last seen. */
  private async addCredentials(): Promise<void> {
    for (const p of this.passkeys) {
      await this.cdp.send('WebAuthn.addCredential', {
        authenticatorId: this.authenticatorId,
        credential: {
          credentialId: base64urlToBase64(p.credentialId),
          isResidentCredential: true,
          rpId: p.rpId,
          privateKey: p.privateKey,
          ...(p.userHandle ? { userHandle: p.userHandle } : {}),
          signCount: this.counts.get(p.credentialId) ?? p.signCount,
        },
      });
    }
  }

  /**
   * A passkey answers only on the saved login's origins, not on every origin its RP ID would allow: before the
   * top-level page loads a document of another origin the credentials are taken out (counters kept), and they are
   * put back once a document of an allowed origin has replaced it. The page in between gets no credential.
   */
  gate(url: string, allowed: readonly string[], phase: 'before-load' | 'committed'): Promise<void> {
    let origin = 'null';
    try {
      origin = new URL(url).origin;
    } catch {
      // about:blank and the like: no origin a passkey is for
    }
    const ok = allowed.includes(origin);
    let change: (() => Promise<void>) | undefined;
    if (!ok && !this.suspended) {
      this.suspended = true;
      change = async () => {
        await this.look();
        await this.cdp.send('WebAuthn.clearCredentials', { authenticatorId: this.authenticatorId });
      };
    } else if (ok && this.suspended && phase === 'committed') {
      this.suspended = false;
      change = () => this.addCredentials();
    }
    if (change) this.gateChain = this.gateChain.then(change).catch(() => {});
    return this.gateChain;
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
    await this.gateChain;
    if (!this.suspended) await this.look();
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
