/**
 * The live-view half of the takeover page script (browser JS, ES2020, as a string): frames drawn on the
 * canvas, the view sized to fit, the viewport size sent to the server, the event stream (fetch + reader,
 * reconnecting) and the end. It runs in the scope takeover.client.js.ts builds (P, S, el, post(),
 * setController(), onState(), announce(), dropInput()); see that file for the whole.
 */
export const TAKEOVER_VIEW_JS = String.raw`
// ---- The live view -------------------------------------------------------------------------------
const paint = el.screen.getContext('2d');
let pendingFrame = null;
let drawing = false;

function renderOverlay() {
  el.overlay.textContent = S.over ? '' : S.link === 'retrying' ? 'Reconnecting…' : S.remote ? '' : 'Connecting…';
  el.view.classList.toggle('stale', S.link === 'retrying'); // the last frame, dimmed
}

/** Area the frame may fill: the stage's content box in CSS px. */
function stageArea() {
  const cs = getComputedStyle(el.stage);
  const padX = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
  const padY = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
  return { width: el.stage.clientWidth - padX, height: el.stage.clientHeight - padY };
}

/**
 * Sizes the view to the largest box of the remote aspect ratio that fits the stage, or, where that would shrink the
 * page below reading size, to the stage's width with the stage scrolling (P.fitReadable).
 */
function layout() {
  if (!S.remote) return;
  const box = P.fitReadable(stageArea(), S.remote);
  el.view.style.width = box.width + 'px';
  el.view.style.height = box.height + 'px';
}

/** Draws the newest frame; frames that arrive while one decodes replace each other (latest wins). */
function onFrame(frame) {
  pendingFrame = frame;
  if (!drawing) drawFrames();
}
async function drawFrames() {
  drawing = true;
  while (pendingFrame && !S.over) {
    const f = pendingFrame;
    pendingFrame = null;
    try {
      const bin = atob(f.data);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
      if (el.screen.width !== bmp.width) el.screen.width = bmp.width;
      if (el.screen.height !== bmp.height) el.screen.height = bmp.height;
      paint.drawImage(bmp, 0, 0);
      if (bmp.close) bmp.close();
      S.remote = { width: Number(f.width) || bmp.width, height: Number(f.height) || bmp.height };
      // The remote size pointer positions are mapped against (the frame's metadata), readable by whoever checks
      // that the view and the remote page agree before pointing at something (test/helpers/takeover-person.ts).
      el.view.dataset.remote = S.remote.width + 'x' + S.remote.height;
      el.view.hidden = S.over;
      layout();
      renderOverlay();
    } catch {
      // an undecodable frame: keep showing the last one
    }
  }
  drawing = false;
}

let resizeTimer = 0;
let lastResize = '';
/** Asks the remote viewport to match our stage (controller only): at once, or debounced 300 ms. */
function sendResize(now) {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(
    () => {
      if (!S.controller || S.over || !S.viewer) return;
      const area = stageArea();
      if (area.width <= 0 || area.height <= 0) return;
      const size = P.clampViewport(area.width, area.height);
      const key = size.width + 'x' + size.height;
      if (key === lastResize && !now) return;
      lastResize = key;
      post('resize', size);
    },
    now ? 0 : 300,
  );
}

// ---- The end, or a link that is over -------------------------------------------------------------
function over() {
  S.over = true;
  dropInput();
  clearTimeout(resizeTimer);
  document.body.classList.add('over');
  el.view.hidden = true;
  renderOverlay();
}
function onEnd(end) {
  if (S.over) return;
  over();
  const words = P.outcomeText(end.outcome, end.message);
  el.outcomeTitle.textContent = words.title;
  el.outcomeDetail.textContent = words.detail;
  el.ended.hidden = false;
  document.title = words.title + ' · Agent Studio';
  el.outcomeTitle.focus();
}
function showExpired() {
  if (S.over) return;
  over();
  el.expired.hidden = false;
  document.title = 'Link expired · Agent Studio';
  el.expiredTitle.focus();
}

// ---- The event stream: fetch + reader, reconnecting (backoff up to 5 s) until the end ----------------
function handle(ev) {
  let data;
  try {
    data = JSON.parse(ev.data);
  } catch {
    return;
  }
  if (!data || typeof data !== 'object') return;
  if (ev.event === 'hello') {
    S.viewer = String(data.viewer || '');
    S.link = 'open';
    renderOverlay();
    setController(data.controller === true, false);
    if (S.controller) sendResize(true);
  } else if (ev.event === 'state') onState(data);
  else if (ev.event === 'frame') onFrame(data);
  else if (ev.event === 'end') onEnd(data);
}

async function connect() {
  let delay = 500;
  while (!S.over) {
    let greeted = false;
    try {
      const res = await fetch(base() + '/events', {
        headers: { 'X-Takeover-Token': S.token, Accept: 'text/event-stream' },
        cache: 'no-store',
      });
      if (res.status === 401 || res.status === 404) return showExpired();
      if (!res.ok || !res.body) throw new Error('events: HTTP ' + res.status);
      const serverNow = Date.parse(res.headers.get('Date') || '');
      if (serverNow) S.skew = Math.abs(serverNow - Date.now()) > 2000 ? serverNow - Date.now() : 0;
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      const parser = P.createSseParser();
      for (;;) {
        const { done, value } = await reader.read();
        const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
        for (const ev of parser.push(text)) {
          if (ev.event === 'hello') greeted = true;
          handle(ev);
        }
        if (done || S.over) break;
      }
      if (S.over) return void reader.cancel().catch(() => {});
    } catch {
      if (S.over) return;
    }
    // dropped before the end: keep the last frame, say so, and try again
    S.link = 'retrying';
    S.viewer = '';
    dropInput();
    renderOverlay();
    const wait = greeted ? 500 : delay;
    await new Promise((resolve) => setTimeout(resolve, wait));
    delay = Math.min(5000, wait * 2);
  }
}

`;
