/**
 * The input half of the takeover page script (browser JS, ES2020, as a string): pointer, wheel, keys,
 * IME/phone text and paste → `POST /live/<id>/input`, one request at a time and in order. It runs in
 * the scope takeover.client.js.ts builds (P = the pure rules, S = the session, el = the elements,
 * post(), setController(), leaveView()); see that file for the whole.
 */
export const TAKEOVER_INPUT_JS = String.raw`
// ---- Input → POST /live/<id>/input ----------------------------------------------------------------
// The queue keeps order: presses, releases, keys and text are never dropped; a mouse move waiting in the
// queue is replaced by a newer one (latest wins) and moves are paced to ~60 a second.
const outbox = [];
let pumping = false;
let lastMoveAt = 0;
const pressed = new Map(); // code → key of every key sent down and not yet up
let held = null; // the pointer pressed on the frame: { id, button, clickCount }
let lastPress = null; // the previous press, for double and triple clicks
let composing = false; // an IME composition is under way: its keys belong to the IME
let escapeArmed = false; // Esc was pressed: a Tab now leaves the live view

const canControl = () => S.controller && !S.over && !!S.remote && !!S.viewer;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function send(msg) {
  if (!canControl()) return;
  P.queueInput(outbox, msg);
  pump();
}

/** Forgets queued input (control lost, stream dropped, login over). */
function dropInput() {
  outbox.length = 0;
  pressed.clear();
  held = null;
}

async function pump() {
  if (pumping) return;
  pumping = true;
  try {
    while (outbox.length > 0 && canControl()) {
      if (outbox[0].type === 'mouse' && outbox[0].action === 'move') {
        const wait = lastMoveAt + 16 - performance.now();
        if (wait > 0) await sleep(wait); // a newer move may replace this one meanwhile
        lastMoveAt = performance.now();
      }
      const msg = outbox.shift();
      if (!msg) break;
      const status = await post('input', msg);
      if (status === 409) {
        // someone else controls the page now: stop sending, say so (the next state event confirms)
        setController(false, true);
        break;
      }
    }
  } finally {
    pumping = false;
  }
}

/** CDP modifier bits of a DOM event (AltGr counts as neither Ctrl nor Alt). */
function mods(e) {
  const altGraph = typeof e.getModifierState === 'function' && e.getModifierState('AltGraph');
  return P.modifiersOf({ altKey: e.altKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, shiftKey: e.shiftKey, altGraph });
}

/** Remote CSS px under the pointer, mapped by the frame's displayed box (whatever the JPEG's own size). */
function point(e) {
  return P.mapToRemote(e.clientX, e.clientY, el.screen.getBoundingClientRect(), S.remote);
}

// ---- Pointer (mouse; touch and pen act as the left button) ----
el.screen.addEventListener('pointerdown', (e) => {
  e.preventDefault(); // no selection or native drag; we move the focus ourselves
  focusView();
  escapeArmed = false;
  if (!canControl() || held) return;
  const p = point(e);
  const button = P.buttonOf(e.button, e.pointerType);
  if (!p.inside || button === 'none') return;
  const now = performance.now();
  const clickCount = P.nextClickCount(lastPress, now, e.clientX, e.clientY, button);
  lastPress = { time: now, x: e.clientX, y: e.clientY, button, count: clickCount };
  held = { id: e.pointerId, button, clickCount };
  try {
    el.screen.setPointerCapture(e.pointerId); // drags keep going outside the frame
  } catch {
    // the pointer is already gone
  }
  const m = mods(e);
  if (e.pointerType !== 'mouse') {
    // touch and pen: bring the remote pointer there first (hover effects, CAPTCHA movement checks)
    send({ type: 'mouse', action: 'move', x: p.x, y: p.y, button: 'none', clickCount: 0, modifiers: m });
  }
  send({ type: 'mouse', action: 'down', x: p.x, y: p.y, button, clickCount, modifiers: m });
});
el.screen.addEventListener('pointermove', (e) => {
  if (!canControl() || (held && e.pointerId !== held.id)) return;
  const p = point(e);
  if (!held && !p.inside) return;
  const button = held ? held.button : 'none';
  send({ type: 'mouse', action: 'move', x: p.x, y: p.y, button, clickCount: 0, modifiers: mods(e) });
});
function release(e) {
  if (!held || e.pointerId !== held.id) return;
  const h = held;
  held = null;
  if (!canControl()) return;
  const p = point(e);
  send({ type: 'mouse', action: 'up', x: p.x, y: p.y, button: h.button, clickCount: h.clickCount, modifiers: mods(e) });
}
el.screen.addEventListener('pointerup', release);
el.screen.addEventListener('pointercancel', release);
el.screen.addEventListener('lostpointercapture', release);
el.view.addEventListener('contextmenu', (e) => e.preventDefault());
el.screen.addEventListener(
  'wheel',
  (e) => {
    e.preventDefault(); // the wheel scrolls the remote page, not this one
    if (!canControl()) return;
    const p = point(e);
    const d = P.wheelDelta(e.deltaX, e.deltaY, e.deltaMode, S.remote.height);
    send({ type: 'wheel', x: p.x, y: p.y, deltaX: d.deltaX, deltaY: d.deltaY, modifiers: mods(e) });
  },
  { passive: false },
);

// ---- Keys. The focus sits in a hidden textarea inside the view (role=application), so IME, dead keys,
// paste and phone keyboards work; every other key is prevented here and sent as is. ----
function focusView() {
  if (document.activeElement !== el.keys) el.keys.focus({ preventScroll: true });
}
el.view.addEventListener('focus', (e) => {
  // Shift+Tab out of the textarea lands on the view itself: go on to the bar instead of back in (no trap)
  if (e.relatedTarget === el.keys) leaveView();
  else focusView();
});

function tap(key, code) {
  send(P.keyMessage(key, code, 'down', 0));
  send(P.keyMessage(key, code, 'up', 0));
}
/** Sends the release of every key still down (focus left, or ⌘ released: macOS drops those keyups). */
function releaseKeys() {
  for (const [code, key] of pressed) send(P.keyMessage(key, code, 'up', 0));
  pressed.clear();
}

el.keys.addEventListener('keydown', (e) => {
  if (S.over || composing || e.isComposing || e.keyCode === 229) return; // the IME or phone keyboard owns it
  const step = P.escapeStep(escapeArmed, e.key, e.shiftKey);
  escapeArmed = step.armed;
  if (step.leave) {
    e.preventDefault(); // Esc then Tab, or Shift+F6: the documented way out
    leaveView();
    return;
  }
  if (!canControl()) return; // watchers send nothing and keep the browser's keys (Tab moves on)
  const m = mods(e);
  if (e.key === 'Dead') return; // the dead key composes its character, sent by compositionend
  const paste = ((m & 6) !== 0 && !e.altKey && (e.key === 'v' || e.key === 'V')) || (e.shiftKey && e.key === 'Insert');
  if (paste) return; // the paste event sends the clipboard's text
  e.preventDefault(); // Tab, Backspace, arrows, space… act on the remote page only
  pressed.set(e.code || e.key, e.key);
  send(P.keyMessage(e.key, e.code, 'down', m));
});
el.keys.addEventListener('keyup', (e) => {
  const id = e.code || e.key;
  if (!pressed.has(id)) return; // its keydown was not sent (IME, paste, exit, watcher)
  e.preventDefault();
  pressed.delete(id);
  send(P.keyMessage(e.key, e.code, 'up', mods(e)));
  if (e.key === 'Meta') releaseKeys();
});
el.keys.addEventListener('blur', () => {
  escapeArmed = false;
  composing = false;
  el.keys.value = '';
  releaseKeys();
});

// ---- Text: IME compositions, phone keyboards (keyCode 229 + input events) and paste ----
el.keys.addEventListener('compositionstart', () => {
  composing = true;
});
el.keys.addEventListener('compositionend', (e) => {
  composing = false;
  const text = el.keys.value || e.data || '';
  el.keys.value = '';
  if (text) send({ type: 'text', text });
});
el.keys.addEventListener('beforeinput', (e) => {
  if (composing || e.isComposing || !canControl()) return;
  if (e.inputType === 'deleteContentBackward') {
    e.preventDefault();
    tap('Backspace', 'Backspace');
  } else if (e.inputType === 'insertLineBreak' || e.inputType === 'insertParagraph') {
    e.preventDefault();
    tap('Enter', 'Enter');
  }
});
el.keys.addEventListener('input', (e) => {
  if (composing || e.isComposing) return;
  const text = el.keys.value;
  el.keys.value = ''; // watchers' typing is dropped too
  if (text) send({ type: 'text', text });
});
el.keys.addEventListener('paste', (e) => {
  e.preventDefault();
  const text = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
  if (text) send({ type: 'text', text });
});
`;
