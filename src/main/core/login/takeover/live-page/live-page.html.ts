/**
 * The takeover page's HTML: a person finishes a stuck login (CAPTCHA, second factor) in the live view
 * of the server's headless page. No inline script or style (the server's CSP forbids both): the
 * behaviour is TAKEOVER_JS at LIVE_JS_PATH, the look TAKEOVER_CSS at LIVE_CSS_PATH.
 */

/** Where the server serves TAKEOVER_JS (Content-Type text/javascript). */
export const LIVE_JS_PATH = '/live/assets/takeover.js';
/** Where the server serves TAKEOVER_CSS (Content-Type text/css). */
export const LIVE_CSS_PATH = '/live/assets/takeover.css';

/**
 * The CSP the page is written for (every request to /live/*): only its own script, style and frames, and never
 * inside another site's frame — except the origins named (the desktop app's window shows it in its own).
 */
export const livePageCsp = (embedders: readonly string[]): string =>
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
  `frame-ancestors ${embedders.length ? embedders.join(' ') : "'none'"}; base-uri 'none'; form-action 'none'`;

/** The page's CSP on a server that lets no one frame it. */
export const LIVE_PAGE_CSP = livePageCsp([]);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The page served at GET /live/<loginId> (the same for every login: the script reads the id and token). */
export function livePageHtml(opts: { title?: string } = {}): string {
  const title = escapeHtml(opts.title ?? 'Finish signing in · Agent Studio');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<link rel="stylesheet" href="${LIVE_CSS_PATH}">
<script src="${LIVE_JS_PATH}" defer></script>
</head>
<body>
<header id="bar" class="bar" tabindex="-1">
  <div class="task">
    <h1 id="instructions">Finish signing in</h1>
    <p class="where"><span id="site" class="site"></span> <span id="page-url" class="page-url"></span></p>
  </div>
  <div class="status">
    <p class="countdown"><span class="sr-only">Time left: </span><span id="countdown" role="timer">--:--</span></p>
    <p id="viewer-state" class="viewer-state">Connecting…</p>
  </div>
  <div id="actions" class="actions">
    <button type="button" id="done" class="primary">Done</button>
    <button type="button" id="cancel">Cancel</button>
    <div id="confirm" class="confirm" role="group" aria-labelledby="confirm-question" hidden>
      <span id="confirm-question">Give up this login?</span>
      <button type="button" id="confirm-yes" class="danger">Yes, cancel</button>
      <button type="button" id="confirm-no">Keep going</button>
    </div>
  </div>
</header>
<main id="main">
  <p id="hint" class="hint"><span id="hint-control">Keyboard and mouse go to the page while the live view has focus.
    To leave it with the keyboard, press <kbd>Esc</kbd> then <kbd>Tab</kbd> (or <kbd>Shift</kbd>+<kbd>F6</kbd>).</span>
    <span id="hint-watch" hidden>You are watching: someone else controls the page. If they leave, control passes to you.</span></p>
  <div id="stage" class="stage">
    <div id="view" class="view" role="application" tabindex="0" aria-describedby="hint" hidden
      aria-label="Live view of the page; keyboard and mouse go to the page">
      <canvas id="screen" class="screen"></canvas>
      <textarea id="keys" class="keys" tabindex="-1" aria-describedby="hint" autocomplete="off" autocapitalize="off"
        autocorrect="off" spellcheck="false" aria-label="Live view of the page; keyboard and mouse go to the page"></textarea>
    </div>
    <p id="overlay" class="overlay" role="status">Connecting…</p>
  </div>
  <section id="ended" class="ended" aria-labelledby="outcome-title" hidden>
    <h1 id="outcome-title" tabindex="-1"></h1>
    <p id="outcome-detail"></p>
  </section>
  <section id="expired" class="ended" aria-labelledby="expired-title" hidden>
    <h1 id="expired-title" tabindex="-1">This link has expired or is not valid: the login it belongs to is over.</h1>
  </section>
  <div id="announcer" class="sr-only" aria-live="polite"></div>
</main>
</body>
</html>
`;
}
