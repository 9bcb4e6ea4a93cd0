import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { BeforeRequestHook } from 'got';
import { lazyModule } from '../lazy-module.js';
import { normalizeHost, type AddressKind, type CheckedAddress, type OutboundPolicy } from './outbound-policy.js';

/**
 * got, for every outbound HTTP client of the core (webhooks, provider calls and downloads, media URLs, MCP uploads),
 * loaded by the first request that needs it: a server that sends nothing out never loads it and its dependencies.
 */
export const loadGot = lazyModule(() => import('got'));
export type Got = Awaited<ReturnType<typeof loadGot>>;

/**
 * A socket `lookup` that answers only addresses the policy already checked (their dial form): a socket given
 * it connects to one of them whatever a second DNS answer would say. `checked` must not be empty.
 */
export function checkedLookup(checked: readonly CheckedAddress[]): LookupFunction {
  const dialed = checked.map((a) => ({ address: a.dial, family: net.isIP(a.dial) }));
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, dialed);
    else callback(null, dialed[0].address, dialed[0].family);
  }) as unknown as LookupFunction;
}

/** What one got request (all its redirect hops) needs to obey the outbound policy. */
export interface HttpGuard {
  /** Spread into got's options: they replace dnsLookup, agent and hooks.beforeRequest. */
  got: {
    dnsLookup: LookupFunction;
    agent: { http: http.Agent; https: https.Agent };
    hooks: { beforeRequest: BeforeRequestHook[] };
  };
  /**
   * True when the request connected somewhere and every address it connected to (or was about to) is
   * public. Callers tell what went wrong in detail only then: for a loopback or private address the
   * detail (refused, not HTTP, an HTML page, a 404...) would make the server a port scanner of the
   * network it sits in, while a public address is one the caller can try for itself.
   */
  onlyPublic(): boolean;
}

/**
 * Per request: names are resolved by the policy (every address checked, the checked one connected to,
 * see OutboundPolicy.resolve) through the socket's `lookup`; literal IP hosts, which sockets never look
 * up, are checked by a beforeRequest hook, which got runs again for every redirect hop. Agents without
 * keep-alive, so that no pooled socket skips the lookup (or outlives a change of policy).
 */
export function httpGuard(policy: OutboundPolicy): HttpGuard {
  const reached = new Set<AddressKind>();
  const dnsLookup = ((hostname: string, options: unknown, callback?: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (
      err: Error | null,
      address?: string | { address: string; family: number }[],
      family?: number,
    ) => void;
    const opts = (typeof options === 'object' && options ? options : {}) as { family?: number; all?: boolean };
    const wanted = opts.family === 4 || opts.family === 6 ? opts.family : 0;
    policy.resolve(hostname).then(
      (checked) => {
        const usable = checked.filter((a) => !wanted || a.family === wanted);
        if (!usable.length)
          return cb(Object.assign(new Error(`no IPv${wanted} address for ${hostname}`), { code: 'ENOTFOUND' }));
        for (const a of usable) reached.add(a.kind);
        const dialed = usable.map((a) => ({ address: a.dial, family: net.isIP(a.dial) }));
        if (opts.all) cb(null, dialed);
        else cb(null, dialed[0].address, dialed[0].family);
      },
      (err: Error) => cb(err),
    );
  }) as LookupFunction;
  const checkLiteral: BeforeRequestHook = (options) => {
    const host = options.url instanceof URL ? options.url.hostname : '';
    policy.checkHostName(host);
    const bare = normalizeHost(host);
    if (net.isIP(bare)) reached.add(policy.checkAddress(bare).kind);
  };
  return {
    got: {
      dnsLookup,
      agent: { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) },
      hooks: { beforeRequest: [checkLiteral] },
    },
    onlyPublic: () => reached.size > 0 && [...reached].every((k) => k === 'public'),
  };
}
