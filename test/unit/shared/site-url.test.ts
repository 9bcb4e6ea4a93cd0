// siteUrlString (src/shared/http-url.schema.ts): sites as people name them — a URL, or a host as address bars and the
// browser-profile listing show it — become full URLs; anything else is a 400 that says what a site may be.
import { describe, expect, it } from 'vitest';
import { SessionImportRequestSchema } from '../../../src/shared/browser-profiles.schema.js';
import { siteUrlString } from '../../../src/shared/http-url.schema.js';

const site = siteUrlString('sites[]');

describe('a site named by URL or by host', () => {
  it.each([
    ['github.com', 'https://github.com/'],
    ['  github.com/settings ', 'https://github.com/settings'],
    ['app.example.com:8443', 'https://app.example.com:8443/'],
    ['127.0.0.1:8080', 'http://127.0.0.1:8080/'],
    ['localhost:3000/app', 'http://localhost:3000/app'],
    ['admin.localhost', 'http://admin.localhost/'],
    ['[::1]:9000', 'http://[::1]:9000/'],
    ['https://github.com/login', 'https://github.com/login'],
    ['http://intranet.example:8080/', 'http://intranet.example:8080/'],
  ])('%s is %s', (input, url) => {
    expect(site.parse(input)).toBe(url);
  });

  it.each([
    '',
    'not a site',
    'ftp://files.example.com',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'https://',
    'mailto:someone@example.com',
  ])('%j is refused, saying what a site may be', (input) => {
    const parsed = site.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0].message).toMatch(
      /^sites\[\] must be a site: a full http:\/\/ or https:\/\/ URL, or a host/,
    );
  });

  it('POST /api/sessions/import takes hosts as the profile listing shows them', () => {
    expect(
      SessionImportRequestSchema.parse({ profile: 'bp_1', sites: ['github.com', '127.0.0.1:8080'] }).sites,
    ).toEqual(['https://github.com/', 'http://127.0.0.1:8080/']);
  });
});
