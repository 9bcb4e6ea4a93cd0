/**
 * The takeover page's pure rules: the wire protocol's types, coordinate mapping, key → CDP modifiers,
 * the input queue, SSE parsing and the words the page shows. The page script (takeover.client.js.ts)
 * is built from these functions' `toString()`, so each rule has one copy, tested here in Node.
 *
 * Every function below is therefore SELF-CONTAINED: it refers to nothing outside its own body (no
 * other function of this file, no import, no module constant), only to its parameters and globals
 * every browser has (Math, JSON, Number…). Types are fine (they vanish when compiled).
 */

export type TakeoverReason = 'captcha_blocked' | 'bot_detected' | 'mfa_required' | 'login_form_not_found';
export type TakeoverOutcome = 'signed_in' | 'done' | 'cancelled' | 'timed_out' | 'closed' | 'failed';
export type MouseButton = 'none' | 'left' | 'middle' | 'right';

/** `event: hello` — the viewer's id (sent back as X-Takeover-Viewer) and whether it controls the page. */
export interface HelloEvent {
  viewer: string;
  controller: boolean;
}
/** `event: state` — sent on connect and whenever it changes. */
export interface StateEvent {
  reason: TakeoverReason;
  instructions: string;
  site: string;
  pageUrl: string;
  deadline: number;
  viewers: number;
  controller: string;
}
/** `event: frame` — a base64 JPEG; width/height are the remote viewport in CSS px. */
export interface FrameEvent {
  data: string;
  width: number;
  height: number;
}
/** `event: end` — then the stream closes. */
export interface EndEvent {
  outcome: TakeoverOutcome;
  message: string;
}

export interface MouseInput {
  type: 'mouse';
  action: 'move' | 'down' | 'up';
  x: number;
  y: number;
  button: MouseButton;
  clickCount: number;
  modifiers: number;
}
export interface WheelInput {
  type: 'wheel';
  x: number;
  y: number;
  deltaX: number;
  deltaY: number;
  modifiers: number;
}
export interface KeyInput {
  type: 'key';
  action: 'down' | 'up';
  key: string;
  code: string;
  text?: string;
  modifiers: number;
}
export interface TextInput {
  type: 'text';
  text: string;
}
/** The body of `POST /live/<id>/input`. */
export type TakeoverInput = MouseInput | WheelInput | KeyInput | TextInput;

export interface Size {
  width: number;
  height: number;
}
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The largest box of the frame's aspect ratio that fits in `area`, centred (CSS px, whole pixels). */
export function fitContain(area: Size, frame: Size): Box {
  if (!(area.width > 0 && area.height > 0 && frame.width > 0 && frame.height > 0)) {
    return { left: 0, top: 0, width: 0, height: 0 };
  }
  const scale = Math.min(area.width / frame.width, area.height / frame.height);
  const width = Math.max(1, Math.floor(frame.width * scale));
  const height = Math.max(1, Math.floor(frame.height * scale));
  return { left: Math.floor((area.width - width) / 2), top: Math.floor((area.height - height) / 2), width, height };
}

/**
 * The box the live frame is shown in. Fitted whole into `area` (as fitContain) while that keeps the remote page at
 * least `minScale` of its size; below that (a short or narrow window, or a remote page that did not follow its
 * size, e.g. someone else controls it) it is shown at the area's width, never above 1:1 nor below `minScale`, and
 * the stage scrolls: a person reads and hits 12 px of a 16 px text, not 7 px letterboxed. Self-contained (the page
 * script carries its source).
 */
export function fitReadable(area: Size, frame: Size, minScale = 0.75): Box {
  if (!(area.width > 0 && area.height > 0 && frame.width > 0 && frame.height > 0)) {
    return { left: 0, top: 0, width: 0, height: 0 };
  }
  const whole = Math.min(area.width / frame.width, area.height / frame.height);
  const scale = whole >= minScale ? whole : Math.min(1, Math.max(minScale, area.width / frame.width));
  const width = Math.max(1, Math.floor(frame.width * scale));
  const height = Math.max(1, Math.floor(frame.height * scale));
  return {
    left: Math.max(0, Math.floor((area.width - width) / 2)),
    top: Math.max(0, Math.floor((area.height - height) / 2)),
    width,
    height,
  };
}

/**
 * A pointer at (clientX, clientY) over the frame displayed in `box` (its getBoundingClientRect) → the
 * remote viewport's CSS px, clamped to 0..width × 0..height, rounded to 0.1 px. Independent of the
 * JPEG's own pixel size and of either side's device scale: only the displayed box counts.
 */
export function mapToRemote(
  clientX: number,
  clientY: number,
  box: Box,
  remote: Size,
): { x: number; y: number; inside: boolean } {
  const fx = box.width > 0 ? (clientX - box.left) / box.width : 0;
  const fy = box.height > 0 ? (clientY - box.top) / box.height : 0;
  const inside = fx >= 0 && fx <= 1 && fy >= 0 && fy <= 1;
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const x = Math.round(clamp(fx) * remote.width * 10) / 10;
  const y = Math.round(clamp(fy) * remote.height * 10) / 10;
  return { x, y, inside };
}

/** The viewport size to ask the remote page for: the display area, whole CSS px, clamped 320..1920 × 240..1200. */
export function clampViewport(width: number, height: number): Size {
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(Number(v) || 0)));
  return { width: clamp(width, 320, 1920), height: clamp(height, 240, 1200) };
}

/**
 * CDP modifier bits (Alt=1, Ctrl=2, Meta=4, Shift=8) of a DOM event. With AltGraph (Windows/Linux
 * AltGr, which browsers also report as Ctrl+Alt) the Ctrl and Alt bits are dropped: the key types a character.
 */
export function modifiersOf(e: {
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altGraph?: boolean;
}): number {
  const altGr = e.altGraph === true;
  return (e.altKey && !altGr ? 1 : 0) | (e.ctrlKey && !altGr ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0);
}

/** The remote button of a pointer event: touch and pen act as the left button. */
export function buttonOf(button: number, pointerType: string): MouseButton {
  if (pointerType === 'touch' || pointerType === 'pen') return 'left';
  return button === 0 ? 'left' : button === 1 ? 'middle' : button === 2 ? 'right' : 'none';
}

/** Click count of a press: a press of the same button within 500 ms and 5 px of the last one counts on. */
export function nextClickCount(
  last: { time: number; x: number; y: number; button: MouseButton; count: number } | null,
  time: number,
  x: number,
  y: number,
  button: MouseButton,
): number {
  const near = last && last.button === button && time - last.time <= 500;
  return near && Math.abs(x - last.x) <= 5 && Math.abs(y - last.y) <= 5 ? last.count + 1 : 1;
}

/**
 * The key message of a DOM key event. `text` only on keydown of a printable key (one character)
 * without Ctrl/Meta (pass modifiers from modifiersOf, which clears Ctrl for AltGr characters).
 */
export function keyMessage(key: string, code: string, action: 'down' | 'up', modifiers: number): KeyInput {
  const msg: KeyInput = { type: 'key', action, key, code: code || '', modifiers };
  if (action === 'down' && Array.from(key).length === 1 && (modifiers & 6) === 0) msg.text = key;
  return msg;
}

/**
 * The documented keyboard exit of the live view: Esc then Tab (Shift+Tab too), or Shift+F6 at once.
 * Esc itself still goes to the page; modifier presses between Esc and Tab keep the exit armed.
 */
export function escapeStep(armed: boolean, key: string, shiftKey: boolean): { leave: boolean; armed: boolean } {
  if (key === 'F6' && shiftKey) return { leave: true, armed: false };
  if (key === 'Tab' && armed) return { leave: true, armed: false };
  if (key === 'Escape') return { leave: false, armed: true };
  if (key === 'Shift' || key === 'Control' || key === 'Alt' || key === 'Meta') return { leave: false, armed };
  return { leave: false, armed: false };
}

/** A wheel event's deltas in CSS px (lines count 40 px, pages a viewport height), 0.01 px. */
export function wheelDelta(deltaX: number, deltaY: number, deltaMode: number, pageHeight: number) {
  const unit = deltaMode === 1 ? 40 : deltaMode === 2 ? pageHeight || 800 : 1;
  const r = (v: number) => Math.round(v * unit * 100) / 100;
  return { deltaX: r(deltaX), deltaY: r(deltaY) };
}

/**
 * Adds an input to the queue of messages not yet posted, in order. Mouse moves are coalesced (a move
 * replaces a move still waiting behind it: latest wins) and so are wheel turns (deltas add up); presses,
 * releases, keys and text are never dropped or reordered.
 */
export function queueInput(queue: TakeoverInput[], msg: TakeoverInput): TakeoverInput[] {
  const last = queue.length > 0 ? queue[queue.length - 1] : undefined;
  if (msg.type === 'mouse' && msg.action === 'move' && last?.type === 'mouse' && last.action === 'move') {
    queue[queue.length - 1] = msg;
  } else if (msg.type === 'wheel' && last?.type === 'wheel' && last.modifiers === msg.modifiers) {
    queue[queue.length - 1] = { ...msg, deltaX: last.deltaX + msg.deltaX, deltaY: last.deltaY + msg.deltaY };
  } else {
    queue.push(msg);
  }
  return queue;
}

/**
 * A `text/event-stream` parser fed with decoded text chunks as they arrive (a line, a field or a
 * CRLF may be split across chunks). Returns the events completed by each chunk.
 */
export function createSseParser(): { push(chunk: string): { event: string; data: string }[] } {
  let buffer = '';
  let started = false;
  let event = '';
  let data: string[] = [];
  let hasData = false;
  return {
    push(chunk: string) {
      buffer += chunk;
      if (!started && buffer.length > 0) {
        started = true;
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
      }
      const out: { event: string; data: string }[] = [];
      let start = 0;
      for (;;) {
        let end = start;
        while (end < buffer.length && buffer[end] !== '\n' && buffer[end] !== '\r') end++;
        if (end >= buffer.length) break; // no complete line yet
        if (buffer[end] === '\r' && end === buffer.length - 1) break; // maybe the CR of a CRLF: wait
        const line = buffer.slice(start, end);
        start = end + (buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1);
        if (line === '') {
          if (hasData) out.push({ event: event || 'message', data: data.join('\n') });
          event = '';
          data = [];
          hasData = false;
        } else if (line[0] !== ':') {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? '' : line.slice(colon + 1);
          if (value[0] === ' ') value = value.slice(1);
          if (field === 'event') event = value;
          else if (field === 'data') {
            data.push(value);
            hasData = true;
          }
        }
      }
      buffer = buffer.slice(start);
      return out;
    },
  };
}

/** The login id (from `/live/<id>`) and the token (the fragment, without `#`) of the page's address. */
export function parseLiveLocation(pathname: string, hash: string): { loginId: string | null; token: string } {
  const m = /^\/live\/([^/]+)\/?$/.exec(pathname);
  let loginId: string | null = null;
  if (m) {
    try {
      loginId = decodeURIComponent(m[1]);
    } catch {
      loginId = null;
    }
  }
  return { loginId, token: hash.startsWith('#') ? hash.slice(1) : hash };
}
