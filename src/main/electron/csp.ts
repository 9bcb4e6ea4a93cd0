// The renderer's Content-Security-Policy, in one place. Pure (no electron import) so a test can check
// that the <meta> policy in src/renderer/index.html, which electronegativity evaluates, is this one.

/**
 * Production policy, sent as a header on every app:// document. Images and media may come from the
 * local API on 127.0.0.1 (signed video URLs), and so may frames (the live page where a person finishes a stuck
 * login); its port is a setting, hence the port wildcard.
 */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: http://127.0.0.1:*; " +
  "media-src 'self' blob: http://127.0.0.1:*; frame-src http://127.0.0.1:*; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** Development only (electron-vite dev server): React refresh needs an inline script and a websocket. */
export const DEV_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
  "connect-src 'self'",
  "connect-src 'self' ws://localhost:* http://localhost:*",
);
