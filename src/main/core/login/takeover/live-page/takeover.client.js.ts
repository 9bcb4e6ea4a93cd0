/**
 * The takeover page script (served at LIVE_JS_PATH), plain browser JS (ES2020) in a string: the pure
 * rules of takeover-protocol.ts and takeover-text.ts (from their toString(), one copy of each rule),
 * then the page below (session, bar, start), the live view and event stream in takeover-view.js.ts and
 * the input half in takeover-input.js.ts, all in one IIFE.
 *
 * What it does: reads the login id from /live/<id> and the token from the fragment (then removes the
 * fragment from the address bar), reads GET /live/<id>/events with fetch (EventSource cannot send the
 * X-Takeover-Token header), draws the newest JPEG frame on a canvas scaled to fit (or to the width, scrolling, when fitting would be unreadable), and posts the
 * person's input, viewport size, Done and Cancel.
 */
import {
  buttonOf,
  clampViewport,
  createSseParser,
  escapeStep,
  fitReadable,
  keyMessage,
  mapToRemote,
  modifiersOf,
  nextClickCount,
  parseLiveLocation,
  queueInput,
  wheelDelta,
} from './takeover-protocol.js';
import {
  countdownAnnouncement,
  formatCountdown,
  instructionsFor,
  outcomeText,
  viewerStateText,
} from './takeover-text.js';
import { TAKEOVER_INPUT_JS } from './takeover-input.js.js';
import { TAKEOVER_VIEW_JS } from './takeover-view.js.js';

/** The pure functions the page uses, by the name it calls them (P.name). Each is self-contained. */
const PURE: Record<string, (...args: never[]) => unknown> = {
  buttonOf,
  clampViewport,
  createSseParser,
  escapeStep,
  fitReadable,
  keyMessage,
  mapToRemote,
  modifiersOf,
  nextClickCount,
  parseLiveLocation,
  queueInput,
  wheelDelta,
  countdownAnnouncement,
  formatCountdown,
  instructionsFor,
  outcomeText,
  viewerStateText,
};

const PAGE_JS = String.raw`
const $ = (id) => document.getElementById(id);
const el = {
  bar: $('bar'), instructions: $('instructions'), site: $('site'), pageUrl: $('page-url'),
  countdown: $('countdown'), viewerState: $('viewer-state'), done: $('done'), cancel: $('cancel'),
  confirm: $('confirm'), confirmYes: $('confirm-yes'), confirmNo: $('confirm-no'), stage: $('stage'),
  view: $('view'), screen: $('screen'), keys: $('keys'), overlay: $('overlay'), ended: $('ended'),
  outcomeTitle: $('outcome-title'), outcomeDetail: $('outcome-detail'), expired: $('expired'),
  expiredTitle: $('expired-title'), announcer: $('announcer'), hintControl: $('hint-control'),
  hintWatch: $('hint-watch'),
};

// The login id and token come from the address; the token then leaves the address bar (kept in memory
// only) so a copied or shared address does not carry it.
const where = P.parseLiveLocation(location.pathname, location.hash);
if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);

const S = {
  loginId: where.loginId,
  token: where.token,
  viewer: '', // our viewer id (hello), sent as X-Takeover-Viewer
  controller: false, // whether we control the page (else we watch)
  state: null, // the newest state event
  remote: null, // { width, height }: the remote viewport in CSS px, from the newest frame
  link: 'connecting', // 'connecting' | 'open' | 'retrying'
  over: false, // the login ended or the link is over: nothing more happens
  busy: false, // Done or Cancel posted, waiting for the end
  deadline: 0,
  lastLeft: null, // ms left at the previous countdown tick (for the announcements)
  skew: 0, // server clock - our clock, when they differ by more than 2 s
};

const base = () => '/live/' + encodeURIComponent(S.loginId);

/** POSTs to /live/<id>/<what> (JSON body or none); resolves with the status, 0 for a network error. */
async function post(what, body) {
  const headers = { 'X-Takeover-Token': S.token, 'X-Takeover-Viewer': S.viewer };
  const init = { method: 'POST', headers, cache: 'no-store' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  try {
    return (await fetch(base() + '/' + what, init)).status;
  } catch {
    return 0;
  }
}

/** Says something through the polite live region (cleared first so a repeated text is said again). */
function announce(text) {
  el.announcer.textContent = '';
  setTimeout(() => {
    el.announcer.textContent = text;
  }, 60);
}

// ---- The bar -------------------------------------------------------------------------------------
function renderViewer() {
  if (!S.busy) el.viewerState.textContent = P.viewerStateText(S.controller, S.state ? S.state.viewers : 1);
  const site = S.state && S.state.site ? S.state.site : 'the page';
  const label = S.controller
    ? 'Live view of ' + site + '; keyboard and mouse go to the page'
    : 'Live view of ' + site + '; watching only, someone else controls it';
  el.view.setAttribute('aria-label', label);
  el.keys.setAttribute('aria-label', label);
  el.view.classList.toggle('watching', !S.controller);
  el.hintControl.hidden = !S.controller;
  el.hintWatch.hidden = S.controller;
}

/** We gained or lost control (hello, state, or a 409 on input). */
function setController(on, say) {
  const changed = on !== S.controller;
  S.controller = on;
  if (!on) dropInput();
  renderViewer();
  if (!changed) return;
  if (on) sendResize(true);
  if (say) announce(on ? 'You control this page now.' : 'Watching: someone else controls this page now.');
}

function onState(st) {
  S.state = st;
  el.instructions.textContent = P.instructionsFor(st.reason, st.instructions);
  el.site.textContent = st.site || '';
  el.pageUrl.textContent = st.pageUrl || '';
  el.pageUrl.title = st.pageUrl || '';
  if (st.deadline !== S.deadline) {
    S.deadline = Number(st.deadline) || 0;
    S.lastLeft = null;
  }
  tick();
  if (S.viewer) setController(st.controller === S.viewer, true);
  else renderViewer();
}

/** The countdown: mm:ss every second; the live region speaks once a minute and at 30 s. */
function tick() {
  if (!S.deadline || S.over) return;
  const left = S.deadline - (Date.now() + S.skew);
  el.countdown.textContent = P.formatCountdown(left);
  el.countdown.parentElement.classList.toggle('urgent', left <= 60000);
  const say = P.countdownAnnouncement(S.lastLeft, left);
  if (say) announce(say);
  S.lastLeft = left;
}

function setBusy(on, text) {
  S.busy = on;
  for (const b of [el.done, el.cancel, el.confirmYes, el.confirmNo]) b.disabled = on;
  if (text) el.viewerState.textContent = text;
}

function closeConfirm(focusCancel) {
  el.confirm.hidden = true;
  el.cancel.hidden = false;
  if (focusCancel) el.cancel.focus();
}

async function finish(what, text) {
  if (S.over || S.busy) return;
  setBusy(true, text);
  const status = await post(what);
  if (S.over) return;
  if (status === 401 || status === 404) return showExpired();
  if (status >= 200 && status < 300) return; // the end event follows
  setBusy(false, 'That did not go through. Try again.');
  announce('That did not go through. Try again.');
}

/** Where Esc then Tab (or Shift+F6) takes the keyboard: the bar's first button. */
function leaveView() {
  const target = [el.done, el.cancel, el.confirmNo].find((b) => !b.disabled && b.offsetParent !== null);
  (target || el.bar).focus();
}

function start() {
  el.done.addEventListener('click', () => finish('done', 'Handing the session back…'));
  el.cancel.addEventListener('click', () => {
    el.cancel.hidden = true;
    el.confirm.hidden = false;
    el.confirmNo.focus();
  });
  el.confirmNo.addEventListener('click', () => closeConfirm(true));
  el.confirmYes.addEventListener('click', () => finish('cancel', 'Cancelling…'));
  el.confirm.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') closeConfirm(true);
  });
  new ResizeObserver(() => {
    layout();
    sendResize(false);
  }).observe(el.stage);
  setInterval(tick, 1000);
  if (!S.loginId || !S.token) return showExpired();
  renderOverlay();
  connect();
}
`;

/** The whole page script: the pure rules as P, then the page, its view and its input half, started once. */
export const TAKEOVER_JS = `// Agent Studio: the takeover page (finish a stuck login in the live view). Built from
// src/main/core/login/takeover/live-page/*.ts.
(() => {
'use strict';
// tsx (esbuild keepNames) wraps some functions in __name(fn, "name"); here it only returns fn.
var __name = (f) => f;
const P = {
${Object.entries(PURE)
  .map(([name, fn]) => `${name}: (${fn.toString()}),`)
  .join('\n')}
};
${PAGE_JS}
${TAKEOVER_VIEW_JS}
${TAKEOVER_INPUT_JS}
start();
})();
`;
