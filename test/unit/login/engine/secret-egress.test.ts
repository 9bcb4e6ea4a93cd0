// The pure part of the egress rule (docs/security.md#a-saved-secret-goes-only-where-it-belongs): in which forms a secret is found in a request, what is not
// taken for one (so third-party traffic never stops a login by chance), and which origins or sites may get it.
import { describe, expect, it } from 'vitest';
import {
  EgressPolicy,
  lenientUrlDecode,
  requestCarriesSecret,
  SecretNeedles,
  siteOf,
} from '../../../../src/main/core/login/engine/secret-egress.js';

const PASSWORD = 'correct horse/battery&staple+é';

describe('a secret in a request', () => {
  const needles = new SecretNeedles([PASSWORD]);
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

  it.each([
    ['plain in the body', { url: 'https://x.test/', body: `pw=${PASSWORD}` }],
    ['percent-encoded in the query', { url: `https://x.test/c?p=${encodeURIComponent(PASSWORD)}` }],
    ['percent-encoded in lower case', { url: `https://x.test/c?p=${encodeURIComponent(PASSWORD).toLowerCase()}` }],
    ['form-encoded', { url: 'https://x.test/', body: new URLSearchParams({ p: PASSWORD }).toString() }],
    ['JSON-escaped', { url: 'https://x.test/', body: JSON.stringify({ p: PASSWORD }) }],
    ['JSON inside a query value', { url: `https://x.test/?d=${encodeURIComponent(JSON.stringify({ p: PASSWORD }))}` }],
    ['hex', { url: 'https://x.test/', body: Buffer.from(PASSWORD).toString('hex') }],
    ['base64', { url: 'https://x.test/', body: b64(PASSWORD) }],
    ['base64 at offset 1', { url: 'https://x.test/', body: b64(`x${PASSWORD}`) }],
    ['base64 at offset 2 inside JSON', { url: 'https://x.test/', body: b64(JSON.stringify({ pw: PASSWORD })) }],
    ['base64url', { url: 'https://x.test/', body: Buffer.from(`ab${PASSWORD}`).toString('base64url') }],
    [
      'a Basic Authorization header',
      { url: 'https://x.test/', headers: { authorization: `Basic ${b64(`ada:${PASSWORD}`)}` } },
    ],
  ])('is found %s', (_name, req) => {
    expect(requestCarriesSecret(req, needles)).toBe(true);
  });

  it('is not found where it is not', () => {
    expect(requestCarriesSecret({ url: 'https://x.test/c?p=correct+horse', body: 'battery staple' }, needles)).toBe(
      false,
    );
  });

  it('a short secret (a code) counts only as a whole token, not inside a timestamp or a word', () => {
    const code = new SecretNeedles(['482913']);
    expect(code.foundIn('{"code":"482913"}')).toBe(true);
    expect(code.foundIn('otp=482913&x=1')).toBe(true);
    expect(code.foundIn('{"ts":17334829130045}')).toBe(false);
    expect(code.foundIn('id=a482913b')).toBe(false);
    // From 6 bytes its base64 form is looked for too (8 characters of 64 kinds: not there by chance)…
    expect(code.foundIn(Buffer.from('482913').toString('base64'))).toBe(true);
    // …a 4-digit code's is not (a few characters that occur by chance in encoded text)
    expect(new SecretNeedles(['4829']).foundIn(Buffer.from('4829').toString('base64'))).toBe(false);
  });

  it('a value the login was told to type counts from 6 characters and when it is not a yes/no word', () => {
    const values = new SecretNeedles([], ['true', 'acme', 'Yes', 'N0rthwind-4471']);
    expect(values.empty).toBe(false);
    expect(values.foundIn('{"remember":true,"org":"acme"}')).toBe(false);
    expect(values.foundIn('org=N0rthwind-4471')).toBe(true);
    expect(new SecretNeedles([], ['true', 'off']).empty).toBe(true);
  });

  it('decodes leniently: a malformed escape stays, the rest is decoded', () => {
    expect(lenientUrlDecode('a%ZZb%20c+d%E2%82')).toBe('a%ZZb c d%E2%82');
  });
});

describe('where a secret may go', () => {
  it('a saved login: exactly its origins', () => {
    const policy = new EgressPolicy(['https://app.example.com', 'https://api.example.com'], 'origins');
    expect(policy.allows('https://api.example.com')).toBe(true);
    expect(policy.allows('https://cdn.example.com')).toBe(false);
    expect(policy.allows('http://app.example.com')).toBe(false);
    policy.typedOn('https://cdn.example.com');
    expect(policy.allows('https://cdn.example.com')).toBe(false);
  });

  it('inline credentials: the sites of the login page and of every page they were typed on', () => {
    const policy = new EgressPolicy(['https://app.example.co.uk'], 'sites');
    expect(policy.allows('https://api.example.co.uk')).toBe(true);
    expect(policy.allows('https://other.co.uk')).toBe(false);
    expect(policy.allows('https://example.github.io')).toBe(false);
    policy.typedOn('https://login.vendor.test');
    expect(policy.allows('https://api.vendor.test')).toBe(true);
  });

  it('an IP address or localhost is its own site, whatever the port', () => {
    expect(siteOf('http://127.0.0.1:8080')).toBe(siteOf('http://127.0.0.1:9090'));
    expect(siteOf('http://127.0.0.1:8080')).not.toBe(siteOf('http://127.0.0.2:8080'));
    expect(siteOf('http://localhost:1')).not.toBe(siteOf('http://127.0.0.1:1'));
    expect(siteOf('https://a.user.github.io')).toBe('https://user.github.io');
  });
});
