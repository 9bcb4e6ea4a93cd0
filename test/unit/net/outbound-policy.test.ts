import { describe, expect, it, vi } from 'vitest';
import { ConfigSchema } from '../../../src/main/core/config/config.schema.js';
import { loadConfig } from '../../../src/main/core/config/load-config.js';
import {
  classifyAddress,
  OutboundPolicy,
  OutboundRefusedError,
  outboundRefusal,
  type ResolvedAddress,
} from '../../../src/main/core/net/outbound-policy.js';
import { tableResolver, type NameTable } from '../../helpers/outbound-names.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * The outbound policy's decisions, by address. Names are mapped to addresses by a resolver hook: nothing
 * here sends a packet (the HTTP and IMAP call sites are tested in test/integration/net/outbound-policy.test.ts).
 */

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** A resolver hook over a fixed table (calls counted); a name not in it does not exist. */
const resolver = (table: NameTable) => vi.fn(tableResolver(table));

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'], // carrier-grade NAT
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['198.18.0.1', 'private'], // benchmarking (proxies' fake-IP DNS lives here)
    ['203.0.113.5', 'private'], // documentation
    ['240.0.0.1', 'private'], // reserved
    ['169.254.169.254', 'never'], // link-local: AWS, GCP, Azure, OCI metadata
    ['169.254.0.1', 'never'],
    ['fe80::1', 'never'],
    ['fe80::1%eth0', 'never'],
    ['0.0.0.0', 'never'],
    ['0.1.2.3', 'never'], // 0.0.0.0/8
    ['::', 'never'],
    ['224.0.0.1', 'never'],
    ['ff02::1', 'never'],
    ['255.255.255.255', 'never'],
    ['fd00:ec2::254', 'never'], // AWS IMDS over IPv6
    ['100.100.100.200', 'never'], // Alibaba metadata
    ['168.63.129.16', 'never'], // Azure wire server
    // IPv6 forms of IPv4 addresses are what they stand for.
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'never'],
    ['::ffff:0.0.0.0', 'never'],
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:0:a9fe:a9fe', 'never'], // SIIT (RFC 6145)
    ['64:ff9b::a9fe:a9fe', 'never'], // NAT64
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['2002:a9fe:a9fe::1', 'never'], // 6to4
    ['::a9fe:a9fe', 'never'], // IPv4-compatible (deprecated)
    ['[::ffff:10.0.0.1]', 'private'], // as a URL's hostname has it
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address).kind).toBe(kind);
  });
});

describe('OutboundPolicy', () => {
  const privateOk = new OutboundPolicy({ mode: 'private-ok' });
  const publicOnly = new OutboundPolicy({ mode: 'public-only' });

  it('private-ok (the default) allows public, private and loopback; public-only only public; neither link-local', () => {
    expect(new OutboundPolicy().mode).toBe('private-ok');
    for (const [address, okPrivate, okPublic] of [
      ['8.8.8.8', true, true],
      ['10.0.0.1', true, false],
      ['127.0.0.1', true, false],
      ['::ffff:10.0.0.1', true, false],
      ['169.254.169.254', false, false],
      ['::ffff:169.254.169.254', false, false],
      ['0.0.0.0', false, false],
      ['fe80::1', false, false],
    ] as const) {
      const outcome = (p: OutboundPolicy) => (() => p.checkAddress(address)) as () => unknown;
      if (okPrivate) expect(outcome(privateOk), address).not.toThrow();
      else expect(outcome(privateOk), address).toThrow(OutboundRefusedError);
      if (okPublic) expect(outcome(publicOnly), address).not.toThrow();
      else expect(outcome(publicOnly), address).toThrow(OutboundRefusedError);
    }
  });

  it('says why in words, without the address a name resolved to', async () => {
    const policy = new OutboundPolicy({ mode: 'public-only', resolve: resolver({ 'intra.test': [v4('10.9.8.7')] }) });
    const err = await policy.resolve('intra.test').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundRefusedError);
    expect((err as OutboundRefusedError).reason).toBe(
      'its address is a private or reserved address, and network.outbound is "public-only" (public addresses only)',
    );
    expect((err as Error).message).not.toContain('10.9.8.7');
    expect(privateOk.refusalOfHost('169.254.169.254')?.reason).toMatch(/link-local .* never connects to/);
    expect(publicOnly.refusalOfHost('127.0.0.1')?.reason).toMatch(/loopback address, and network.outbound is/);
  });

  it('checks every address a name resolves to, and connects only to checked ones', async () => {
    const table = {
      'public.test': [v4('93.184.215.14'), v6('2606:2800:21f:cb07:6820:80da:af6b:8b2c')],
      'private.test': [v4('10.0.0.1')],
      'rebind.test': [v4('93.184.215.14'), v4('10.0.0.1')], // one public address does not carry the other
      'meta.test': [v4('169.254.169.254')],
      'mapped.test': [v6('::ffff:169.254.169.254')],
      'loop.test': [v4('127.0.0.1'), v6('::1')],
    };
    const dial = (a: string) => `dialed:${a}`;
    const ok = new OutboundPolicy({ mode: 'private-ok', resolve: resolver(table), dial });
    const strict = new OutboundPolicy({ mode: 'public-only', resolve: resolver(table), dial });

    expect(await ok.resolve('public.test')).toEqual([
      { address: '93.184.215.14', family: 4, kind: 'public', dial: 'dialed:93.184.215.14' },
      expect.objectContaining({ kind: 'public', family: 6 }),
    ]);
    expect((await ok.resolve('rebind.test')).map((a) => a.kind)).toEqual(['public', 'private']);
    await expect(strict.resolve('rebind.test')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(strict.resolve('private.test')).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(strict.resolve('loop.test')).rejects.toBeInstanceOf(OutboundRefusedError);
    expect((await ok.resolve('LOOP.test.')).map((a) => a.kind)).toEqual(['loopback', 'loopback']);
    for (const p of [ok, strict]) {
      await expect(p.resolve('meta.test')).rejects.toBeInstanceOf(OutboundRefusedError);
      await expect(p.resolve('mapped.test')).rejects.toBeInstanceOf(OutboundRefusedError);
    }
    // A literal address is not looked up, and is connected to as given (never through the test hook).
    expect(await ok.resolve('[::ffff:a00:1]')).toEqual([
      { address: '::ffff:a00:1', family: 6, kind: 'private', dial: '::ffff:a00:1' },
    ]);
    await expect(ok.resolve('nowhere.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('refuses cloud metadata host names before resolving them', async () => {
    const resolve = resolver({ 'metadata.google.internal': [v4('93.184.215.14')] });
    const policy = new OutboundPolicy({ resolve });
    for (const name of ['metadata.google.internal', 'METADATA.google.internal.', 'metadata', 'instance-data'])
      await expect(policy.resolve(name), name).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('refusalOfUrl: what can be refused without DNS (literal addresses in every spelling, metadata names)', () => {
    const refused = (p: OutboundPolicy, url: string) => p.refusalOfUrl(url) !== null;
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]:8080/',
      'http://0.0.0.0:4780/',
      'http://0/',
      'http://[::]/',
      'http://[fe80::1]/',
      'https://metadata.google.internal/computeMetadata/v1/',
    ]) {
      expect(refused(privateOk, url), url).toBe(true);
      expect(refused(publicOnly, url), url).toBe(true);
    }
    for (const url of [
      'http://10.0.0.1/',
      'http://[::ffff:10.0.0.1]/',
      'http://127.0.0.1:9/',
      'http://2130706433/', // 127.0.0.1 as one number
      'http://localhost:4780/', // loopback by definition (RFC 6761), whatever DNS says
      'http://app.localhost/',
    ]) {
      expect(refused(privateOk, url), url).toBe(false);
      expect(refused(publicOnly, url), url).toBe(true);
    }
    // Names are decided when connecting; an unparsable URL is the schema's business.
    expect(refused(publicOnly, 'https://hooks.example.com/cb')).toBe(false);
    expect(refused(publicOnly, 'not a url')).toBe(false);
  });

  it('outboundRefusal finds the refusal in a cause chain (got and imapflow wrap socket errors)', () => {
    const refusal = new OutboundRefusedError('x');
    expect(outboundRefusal(new Error('wrapped', { cause: new Error('again', { cause: refusal }) }))).toBe(refusal);
    expect(outboundRefusal(new Error('other'))).toBeNull();
    expect(outboundRefusal(undefined)).toBeNull();
  });
});

describe('network.outbound setting', () => {
  it('defaults to private-ok; accepts public-only from config.json or AGENT_STUDIO_OUTBOUND; refuses others', () => {
    expect(ConfigSchema.parse({ dataDir: '/x' }).network).toEqual({ outbound: 'private-ok' });
    expect(ConfigSchema.parse({ dataDir: '/x', network: { outbound: 'public-only' } }).network.outbound).toBe(
      'public-only',
    );
    const dir = tempDir();
    expect(loadConfig({ dataDir: dir }, { AGENT_STUDIO_OUTBOUND: 'public-only' }).network.outbound).toBe('public-only');
    expect(() => loadConfig({ dataDir: dir }, { AGENT_STUDIO_OUTBOUND: 'everything' })).toThrow(/network\.outbound/);
  });
});
