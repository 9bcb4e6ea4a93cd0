import { app, session, shell, type WebContents } from 'electron';
import { CSP, DEV_CSP } from './app-protocol.js';

/** Whether `url` is one of the app's own pages (the app:// origin, or the dev server in development). */
export type TrustedUrl = (url: string) => boolean;

export function isSafeExternalUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Session-wide rules: CSP on every response, every permission denied. */
export function hardenSession(opts: { dev: boolean }): void {
  const ses = session.defaultSession;
  const policy = opts.dev ? DEV_CSP : CSP;
  ses.webRequest.onHeadersReceived((details, callback) => {
    // Media the page plays from the local API keep their own headers; only documents get the policy.
    if (details.resourceType !== 'mainFrame' && details.resourceType !== 'subFrame') return callback({});
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } });
  });
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
}

/** Per-contents rules: no navigation away from the app, no new windows, no webviews. */
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
      if (isSafeExternalUrl(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}
