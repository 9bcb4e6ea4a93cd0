import { app, session, shell, type WebContents } from 'electron';
import { CSP, DEV_CSP } from './csp.js';
import { externalLinkTarget, localApiPageTarget } from './external-links.js';

/** Whether `url` is one of the app's own pages (the app:// origin, or the dev server in development). */
export type TrustedUrl = (url: string) => boolean;

/** The app's only call to shell.openExternal: a target one of the checks below returned; null is refused. */
async function openChecked(target: string | null): Promise<boolean> {
  if (target === null) return false;
  await shell.openExternal(target);
  return true;
}

/**
 * Opens `url` in the OS browser when externalLinkTarget allows it (https to a public host name). Resolves false when
 * the link is refused.
 */
export const openExternalLink = (url: string): Promise<boolean> => openChecked(externalLinkTarget(url));

/** Opens the app's own API reference page (localApiPageTarget: loopback http, that path only) in the OS browser. */
export const openLocalApiPage = (url: string): Promise<boolean> => openChecked(localApiPageTarget(url));

/**
 * The one permission the app's own pages get: the video player's full-screen button (requestFullscreen).
 * Everything else (camera, notifications, clipboard, geolocation, ...) is denied, and so is every other page.
 */
export function allowsPermission(permission: string, requestingUrl: string, isTrusted: TrustedUrl): boolean {
  return permission === 'fullscreen' && isTrusted(requestingUrl);
}

/** Session-wide rules: the app's CSP on its documents, every permission but full screen denied. */
export function hardenSession(opts: { dev: boolean; isTrusted: TrustedUrl }): void {
  const ses = session.defaultSession;
  const policy = opts.dev ? DEV_CSP : CSP;
  ses.webRequest.onHeadersReceived((details, callback) => {
    // Media the page plays from the local API keep their own headers; only documents get the policy.
    if (details.resourceType !== 'mainFrame' && details.resourceType !== 'subFrame') return callback({});
    // A frame of the local API's live takeover page keeps its own, stricter policy (which lets this window frame it).
    if (details.resourceType === 'subFrame' && !opts.isTrusted(details.url)) return callback({});
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } });
  });
  ses.setPermissionRequestHandler((_wc, permission, callback, details) =>
    callback(allowsPermission(permission, details.requestingUrl, opts.isTrusted)),
  );
  ses.setPermissionCheckHandler((_wc, permission, requestingOrigin) =>
    allowsPermission(permission, requestingOrigin, opts.isTrusted),
  );
  ses.setDevicePermissionHandler(() => false);
}

/**
 * Per-contents rules: no navigation away from the app, no new windows, no webviews. A link the page
 * opens in a new window (target=_blank, window.open, middle-click) goes to the OS browser if allowed.
 */
export function hardenContents(isTrusted: TrustedUrl): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isTrusted(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isTrusted(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      // The new window is denied either way; an OS browser that fails to start has no one to tell.
      openExternalLink(url).catch(() => undefined);
      return { action: 'deny' };
    });
  });
}
