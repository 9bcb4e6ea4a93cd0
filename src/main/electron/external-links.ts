// Which links the app hands to the OS browser (shell.openExternal). Pure: no electron import, so it is
// unit-tested directly. shell.openExternal passes the URL to the OS, which runs whatever handler is
// registered for its scheme (file:, smb:, ms-msdt:, custom app protocols): only https goes through, and the one
// page of the app's own local API it links to (the API reference).
import { API_ROUTES } from '../../shared/api/index.js';

/** Schemes the OS browser may be asked to open. */
export const EXTERNAL_LINK_SCHEMES: readonly string[] = ['https:'];

/**
 * Host names that are never public sites: a page that gets the OS browser to open them reaches the
 * user's own machine or network (routers, intranet tools, this app's API) with their cookies.
 */
const PRIVATE_HOST_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home.arpa', '.corp'];

/**
 * The normalized URL to open, or null when the link is refused: not https, user:password@ in it, a
 * non-default port, an IP address, a single-label name or a private-use name instead of a public
 * DNS name. The caller opens the returned href, never the raw string, so the OS sees what was checked.
 */
export function externalLinkTarget(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (!EXTERNAL_LINK_SCHEMES.includes(url.protocol)) return null;
  if (url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  // URL normalizes every IPv4 spelling (0x7f.1, 2130706433) to dotted decimal and brackets IPv6.
  if (host.startsWith('[') || /^\d+(\.\d+){3}$/.test(host)) return null;
  if (!host.includes('.') || host === 'localhost') return null;
  if (PRIVATE_HOST_SUFFIXES.some((suffix) => host.endsWith(suffix))) return null;
  return url.href;
}

/** The local API's pages the OS browser may be asked to open: the API reference (GET /docs) only. */
const LOCAL_API_PAGES: readonly string[] = [API_ROUTES.apiReference.path];
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The normalized URL of one of this app's own local pages (the API reference of the server it runs), or null: plain
 * http to a loopback address with a port, the page's exact path, nothing else (no user:password, query or fragment).
 * Never a page of the page's choosing: main builds the address from its own server's.
 */
export function localApiPageTarget(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' || url.username || url.password || !url.port || url.search || url.hash) return null;
  if (!LOOPBACK_HOSTS.includes(url.hostname) || !LOCAL_API_PAGES.includes(url.pathname)) return null;
  return url.href;
}
