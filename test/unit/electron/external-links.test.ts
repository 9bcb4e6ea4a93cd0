// The rule for links handed to the OS browser (shell.openExternal), shared by the app:openExternal IPC
// handler and the new-window handler in src/main/electron/security.ts; and the rule for the one page of the app's own
// local API it opens there (app:openApiReference).
import { describe, expect, it } from 'vitest';
import { apiReferenceUrl } from '../../../src/main/core/desktop/api-reference-channel.js';
import { externalLinkTarget, localApiPageTarget } from '../../../src/main/electron/external-links.js';

describe('externalLinkTarget', () => {
  it('allows https links to public host names and returns the normalized href', () => {
    expect(externalLinkTarget('https://example.com/docs?q=1#top')).toBe('https://example.com/docs?q=1#top');
    expect(externalLinkTarget('https://EXAMPLE.com/a b')).toBe('https://example.com/a%20b');
    expect(externalLinkTarget('https://docs.example.co.uk:443/')).toBe('https://docs.example.co.uk/');
    expect(externalLinkTarget('https://bücher.example/')).toBe('https://xn--bcher-kva.example/');
  });

  it('refuses every scheme but https, since the OS runs whatever handler a scheme has', () => {
    for (const url of [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://example.com/share',
      'ms-msdt:/id PCWDiagnostic',
      'mailto:someone@example.com',
      'app://renderer/index.html',
      'data:text/html,<b>hi</b>',
    ])
      expect(externalLinkTarget(url), url).toBeNull();
  });

  it('refuses credentials, non-default ports and anything that is not a URL', () => {
    for (const url of [
      'https://user:secret@example.com/',
      'https://user@example.com/',
      'https://example.com:8443/',
      'not a url',
      '',
      '//example.com/',
    ])
      expect(externalLinkTarget(url), url).toBeNull();
  });

  it('refuses IP addresses, loopback and private-use names in every spelling', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://0x7f.1/',
      'https://2130706433/',
      'https://192.168.1.1/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://localhost/',
      'https://localhost./',
      'https://api.localhost/',
      'https://printer.local/',
      'https://router.home.arpa/',
      'https://wiki.corp/',
      'https://intranet/',
    ])
      expect(externalLinkTarget(url), url).toBeNull();
  });
});

describe('localApiPageTarget', () => {
  it('allows the API reference of a loopback server, as main builds its address', () => {
    expect(localApiPageTarget(apiReferenceUrl('http://127.0.0.1:4780'))).toBe('http://127.0.0.1:4780/docs');
    expect(localApiPageTarget('http://localhost:51234/docs')).toBe('http://localhost:51234/docs');
    expect(localApiPageTarget('http://[::1]:4780/docs')).toBe('http://[::1]:4780/docs');
  });

  it('refuses any other page, host, scheme or decoration', () => {
    for (const url of [
      'http://127.0.0.1:4780/',
      'http://127.0.0.1:4780/api/credentials',
      'http://127.0.0.1:4780/live/l1#token',
      'http://127.0.0.1:4780/docs?x=1',
      'http://127.0.0.1:4780/docs#frag',
      'http://127.0.0.1/docs',
      'http://user:pw@127.0.0.1:4780/docs',
      'https://127.0.0.1:4780/docs',
      'http://192.168.1.10:4780/docs',
      'http://example.com:4780/docs',
      'file:///docs',
      'not a url',
    ])
      expect(localApiPageTarget(url), url).toBeNull();
  });
});
