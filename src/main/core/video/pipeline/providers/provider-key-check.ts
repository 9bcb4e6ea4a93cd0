// Whether a stored fal.ai / Replicate key works, asked of the provider itself with one cheap authenticated call
// that starts no paid work. The window says "Connected" only after such an answer: a key that was merely stored
// (typed wrong, revoked, or never checked because the provider could not be reached) is said to be just that.
import crypto from 'node:crypto';
import type { HostedProviderStatus, ProviderKeyCheck } from '../../../../../shared/ipc-studio-channels.js';
import { PROVIDER_KEYS } from '../../../../../shared/provider.schema.js';
import type { SecretStore } from '../../../secrets/secret-store.js';
import { ProviderError } from '../video-provider.js';
import { ProviderHttp, joinUrl, type ProviderHttpOptions } from './provider-http.js';

/** One try, a short bound: a check answers a person waiting in the window, and retries would only delay "unreachable". */
const CHECK_TIMEOUT_MS = 10_000;

/**
 * The call and how its answer reads, per provider:
 * - Replicate: `GET {base}/account` (documented: the account the token belongs to; 401 for a bad token).
 * - fal.ai: the queue's status of a request id that cannot exist, under a public app: the queue checks the key
 *   before it looks the request up, so a good key is answered 404 "Request not found" and a bad one 401. fal's
 *   platform API has no documented whoami for API-scope keys; this asks the same host the jobs go to.
 */
const PROBES = {
  fal: {
    label: 'fal.ai',
    path: () => `fal-ai/flux/dev/requests/${crypto.randomUUID()}/status`,
    authorization: (key: string) => `Key ${key}`,
    accepted: (status: number) => status === 404 || (status >= 200 && status < 300),
  },
  replicate: {
    label: 'Replicate',
    path: () => 'account',
    authorization: (key: string) => `Bearer ${key}`,
    accepted: (status: number) => status >= 200 && status < 300,
  },
} as const;

export type CheckedProvider = keyof typeof PROBES;

/** A fingerprint of the key a check was made with: a key stored since (by the CLI, say) is not "Connected" on trust. */
export const keyFingerprint = (key: string) => crypto.createHash('sha256').update(key).digest('hex').slice(0, 16);

export async function checkProviderKey(
  name: CheckedProvider,
  baseUrl: string,
  key: string,
  opts: { http?: Partial<ProviderHttpOptions>; now?: () => number } = {},
): Promise<ProviderKeyCheck> {
  const probe = PROBES[name];
  const checkedAt = (opts.now ?? Date.now)();
  const http = new ProviderHttp({
    ...opts.http,
    label: probe.label,
    maxAttempts: 1,
    requestTimeoutMs: CHECK_TIMEOUT_MS,
  });
  try {
    const res = await http.call({
      method: 'GET',
      url: joinUrl(baseUrl, probe.path()),
      headers: { authorization: probe.authorization(key) },
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS + 1000),
      idempotent: true,
      secrets: [key],
      accept: () => true,
    });
    if (probe.accepted(res.status))
      return { outcome: 'connected', message: `${probe.label} accepted the key.`, checkedAt };
    if (res.status === 401 || res.status === 403) {
      return { outcome: 'refused', message: `${probe.label} refused the key (HTTP ${res.status}).`, checkedAt };
    }
    return {
      outcome: 'unreachable',
      message: `${probe.label} answered HTTP ${res.status}, which says nothing about the key; try again later.`,
      checkedAt,
    };
  } catch (err) {
    const why =
      err instanceof ProviderError ? err.message : `${probe.label} could not be asked: ${(err as Error).message}`;
    return { outcome: 'unreachable', message: why, checkedAt };
  }
}

/**
 * The last check of each provider's key in this process, kept with a fingerprint of the key it was made with: the
 * status says "Connected" only while the stored key is the one that was checked.
 */
export class ProviderKeyChecks {
  private readonly last = new Map<CheckedProvider, { fingerprint: string; check: ProviderKeyCheck }>();

  constructor(
    private readonly deps: {
      secrets: SecretStore;
      baseUrl: (name: CheckedProvider) => string;
      http?: Partial<ProviderHttpOptions>;
    },
  ) {}

  /** Whether a key is stored, and its last check when that was made with the key stored now. */
  async status(name: CheckedProvider): Promise<HostedProviderStatus> {
    const key = await this.read(name);
    if (!key) return { stored: false, check: null };
    const last = this.last.get(name);
    return { stored: true, check: last?.fingerprint === keyFingerprint(key) ? last.check : null };
  }

  /** Asks the provider about the stored key now (nothing to ask without one). */
  async check(name: CheckedProvider): Promise<HostedProviderStatus> {
    const key = await this.read(name);
    if (!key) return { stored: false, check: null };
    const check = await checkProviderKey(name, this.deps.baseUrl(name), key, { http: this.deps.http });
    this.last.set(name, { fingerprint: keyFingerprint(key), check });
    return { stored: true, check };
  }

  private async read(name: CheckedProvider): Promise<string | null> {
    try {
      return await this.deps.secrets.get(PROVIDER_KEYS[name].account);
    } catch {
      return null; // an unreadable store holds no key this app can use
    }
  }
}
