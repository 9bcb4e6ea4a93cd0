import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { DEFAULT_OUTBOUND_MODE, type OutboundMode } from '../config/config.schema.js';

/**
 * The one decision on where the server may connect on a key's behalf (media URLs, webhooks, IMAP
 * hosts, result URLs a provider hands back). It decides by address, never by name: a name is resolved,
 * every address it resolves to is checked, and the connection goes to a checked address (the callers
 * pass `resolve`'s answer to the socket), so a name that resolves differently a moment later (DNS
 * rebinding) gains nothing.
 */

/**
 * public: the internet. private: LAN, VPN, carrier-grade NAT and other ranges that are not the public
 * internet (documentation, benchmarking, 240/4...). loopback: this machine. never: link-local (where
 * cloud metadata services answer), known metadata addresses, unspecified, multicast and broadcast.
 */
export type AddressKind = 'public' | 'private' | 'loopback' | 'never';

export interface AddressClass {
  kind: AddressKind;
  /** The ipaddr.js range name (`linkLocal`, `private`, `uniqueLocal`...) or `metadata`. */
  range: string;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A name -> its addresses (the system resolver by default; tests map names to the ranges they test). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface CheckedAddress extends ResolvedAddress {
  kind: AddressKind;
  /** The address to connect to: `address` itself, except in tests (see OutboundPolicyOptions.dial). */
  dial: string;
}

export interface OutboundPolicyOptions {
  mode?: OutboundMode;
  resolve?: Resolver;
  /**
   * Tests only: the address actually connected to for a checked one, so that a listener on 127.0.0.x can
   * stand for 10.0.0.1 or 169.254.169.254 without any traffic leaving the machine. Production never sets it.
   */
  dial?: (address: string) => string;
}

/** Thrown (or passed to a socket's lookup callback) when the policy refuses a host; no connection was made. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  readonly code = 'ERR_OUTBOUND_REFUSED';
  /** Why, for a person, without the address a name resolved to: "its address is link-local (...)". */
  constructor(readonly reason: string) {
    super(`outbound request refused: ${reason}`);
  }
}

/** The OutboundRefusedError in an error's cause chain (got and imapflow wrap socket errors), or null. */
export function outboundRefusal(err: unknown): OutboundRefusedError | null {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundRefusedError) return e;
  }
  return null;
}

// Metadata services that do not live in link-local space: AWS's IPv6 endpoint (unique-local), Alibaba
// (carrier-grade NAT space), Oracle's and Azure's platform endpoints. Refused in every mode.
const METADATA_ADDRESSES = new Set(
  ['fd00:ec2::254', '100.100.100.200', '192.0.0.192', '168.63.129.16'].map((a) => ipaddr.parse(a).toString()),
);
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);
const NEVER_RANGES = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal']);

/** The IPv4 address an IPv6 one stands for: mapped, translated (NAT64, SIIT), 6to4, IPv4-compatible. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = v6.toByteArray();
  switch (v6.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return new ipaddr.IPv4(bytes.slice(12));
    case '6to4':
      return new ipaddr.IPv4(bytes.slice(2, 6));
    case 'unspecified':
    case 'loopback':
      return null;
  }
  // ::a.b.c.d (deprecated IPv4-compatible): ipaddr.js calls it unicast.
  return bytes.slice(0, 12).every((b) => b === 0) ? new ipaddr.IPv4(bytes.slice(12)) : null;
}

/** What kind of address this is (IPv6 forms of IPv4 addresses are classified as the IPv4 address). */
export function classifyAddress(address: string): AddressClass {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  if (parsed.kind() === 'ipv6') parsed = embeddedIPv4(parsed as ipaddr.IPv6) ?? parsed;
  if (parsed.kind() === 'ipv6') (parsed as ipaddr.IPv6).zoneId = undefined;
  if (METADATA_ADDRESSES.has(parsed.toString())) return { kind: 'never', range: 'metadata' };
  const range = parsed.range();
  if (NEVER_RANGES.has(range)) return { kind: 'never', range };
  if (range === 'loopback') return { kind: 'loopback', range };
  return { kind: range === 'unicast' ? 'public' : 'private', range };
}

/** A host of a URL or a mailbox, without IPv6 brackets and a trailing dot, lower-cased. */
export function normalizeHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function why(c: AddressClass, mode: OutboundMode): string {
  if (c.range === 'metadata') return 'its address is a cloud metadata service, which this server never connects to';
  if (c.range === 'linkLocal')
    return 'its address is link-local (169.254.0.0/16 or fe80::/10, where cloud metadata services answer), which this server never connects to';
  if (c.range === 'unspecified')
    return 'its address is unspecified (0.0.0.0/8 or ::), which this server never connects to';
  if (c.kind === 'never') return `its address is ${c.range}, which this server never connects to`;
  const what = c.kind === 'loopback' ? 'a loopback address' : 'a private or reserved address';
  return `its address is ${what}, and network.outbound is "${mode}" (public addresses only)`;
}

const systemResolver: Resolver = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export class OutboundPolicy {
  readonly mode: OutboundMode;
  private readonly resolver: Resolver;
  private readonly dial: (address: string) => string;

  constructor(opts: OutboundPolicyOptions = {}) {
    this.mode = opts.mode ?? DEFAULT_OUTBOUND_MODE;
    this.resolver = opts.resolve ?? systemResolver;
    this.dial = opts.dial ?? ((a) => a);
  }

  /** Whether an address of this kind may be connected to in this mode. */
  allows(kind: AddressKind): boolean {
    if (kind === 'public') return true;
    return kind !== 'never' && this.mode === 'private-ok';
  }

  /** The class of an IP address, or an OutboundRefusedError when it may not be connected to. */
  checkAddress(address: string): AddressClass {
    const c = classifyAddress(address);
    if (!this.allows(c.kind)) throw new OutboundRefusedError(why(c, this.mode));
    return c;
  }

  /** Refuses the host names of metadata services before anything is resolved. */
  checkHostName(host: string): void {
    if (METADATA_NAMES.has(normalizeHost(host)))
      throw new OutboundRefusedError('its host is a cloud metadata service, which this server never connects to');
  }

  /**
   * What can be refused without DNS: a literal IP address or a metadata name (an early 400 for a bad
   * webhook_url or mailbox host). Null when the host may be fine; connecting checks again.
   */
  refusalOfHost(host: string): OutboundRefusedError | null {
    try {
      this.checkHostName(host);
      const bare = normalizeHost(host);
      if (net.isIP(bare)) this.checkAddress(bare);
      // localhost names are loopback whatever DNS says (RFC 6761; browsers and WHATWG agree).
      else if (/(^|\.)localhost$/.test(bare) && !this.allows('loopback'))
        throw new OutboundRefusedError(why({ kind: 'loopback', range: 'loopback' }, this.mode));
      return null;
    } catch (err) {
      if (err instanceof OutboundRefusedError) return err;
      throw err;
    }
  }

  /** refusalOfHost for the host of an http(s) URL; null when the URL does not parse (schemas say why). */
  refusalOfUrl(value: string): OutboundRefusedError | null {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    return this.refusalOfHost(url.hostname);
  }

  /**
   * Why a URL's host may not be reached, in words for a 400 that names a setting the person can change: null when
   * it may (or when the name does not resolve yet: each connection resolves and checks again). What needs no DNS is
   * decided first (`beforeDns: false` skips that, for a caller whose connections decide by `resolve` alone, as the
   * login browser's proxy does), then every address the name has. Link-local and metadata hosts are refused in
   * every mode, and the words say so.
   */
  async refusalReason(url: string, { beforeDns = true } = {}): Promise<string | null> {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return null; // the schemas answer an invalid URL themselves
    }
    const refused =
      (beforeDns ? this.refusalOfHost(host) : null) ??
      (await this.resolve(host).then(
        () => null,
        (err: unknown) => outboundRefusal(err),
      ));
    if (!refused) return null;
    return /network\.outbound/.test(refused.reason)
      ? refused.reason
      : `${refused.reason}, in any network.outbound mode`;
  }

  /**
   * A host's addresses, every one of them checked: a literal address as is, a name through the resolver.
   * A name with one refused address is refused as a whole (a rebinding answer mixes a public address with
   * an internal one). DNS failures are the resolver's own errors (code ENOTFOUND, EAI_AGAIN).
   */
  async resolve(host: string): Promise<CheckedAddress[]> {
    this.checkHostName(host);
    const bare = normalizeHost(host);
    const family = net.isIP(bare);
    const found: ResolvedAddress[] = family
      ? [{ address: bare, family: family === 6 ? 6 : 4 }]
      : await this.resolver(bare);
    if (!found.length) throw Object.assign(new Error(`no address for ${bare}`), { code: 'ENOTFOUND' });
    return found.map((a) => {
      const { kind } = this.checkAddress(a.address);
      // A literal address is connected to as given; only names go through the test hook.
      return { ...a, kind, dial: family ? a.address : this.dial(a.address) };
    });
  }
}
