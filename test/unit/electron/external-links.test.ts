// The rule for links handed to the OS browser (shell.openExternal), shared by the app:openExternal IPC
// handler and the new-window handler in src/main/electron/security.ts.
import { describe, expect, it } from 'vitest';
import { externalLinkTarget } from '../../../src/main/electron/external-links.js';

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
