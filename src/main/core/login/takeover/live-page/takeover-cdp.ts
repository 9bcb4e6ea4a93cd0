/**
 * For the server: the page's input messages as Chrome DevTools Protocol parameters (Input.dispatchKeyEvent,
 * Input.dispatchMouseEvent; text goes to Input.insertText as is). Pure, Node only; the page does not use it.
 *
 * Why it matters: CDP acts on a key only with its windowsVirtualKeyCode (Backspace, arrows, Tab, Ctrl+A do
 * nothing without it), and Enter needs text "\r" on keyDown or forms do not submit (no keypress).
 */
import type { KeyInput, MouseInput, WheelInput } from './takeover-protocol.js';

const NAMED_KEYS: Record<string, number> = {
  Backspace: 8, Tab: 9, Enter: 13, Shift: 16, Control: 17, Alt: 18, Pause: 19, CapsLock: 20, Escape: 27,
  PageUp: 33, PageDown: 34, End: 35, Home: 36, ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40,
  PrintScreen: 44, Insert: 45, Delete: 46, Meta: 91, ContextMenu: 93, NumLock: 144, ScrollLock: 145,
  AltGraph: 225,
}; // prettier-ignore

const CODE_KEYS: Record<string, number> = {
  Space: 32, Semicolon: 186, Equal: 187, Comma: 188, Minus: 189, Period: 190, Slash: 191, Backquote: 192,
  BracketLeft: 219, Backslash: 220, BracketRight: 221, Quote: 222, IntlBackslash: 226, IntlRo: 193, IntlYen: 255,
  NumpadMultiply: 106, NumpadAdd: 107, NumpadSubtract: 109, NumpadDecimal: 110, NumpadDivide: 111,
  NumpadEnter: 13, NumpadEqual: 187, MetaRight: 92,
}; // prettier-ignore

/** The Windows virtual key code CDP wants for a DOM key/code pair (0 when unknown). */
export function virtualKeyCode(key: string, code: string): number {
  if (key.length > 1 && key !== 'Meta' && NAMED_KEYS[key] !== undefined) return NAMED_KEYS[key];
  const f = /^F([1-9]|1\d|2[0-4])$/.exec(key);
  if (f) return 111 + Number(f[1]);
  if (/^Key[A-Z]$/.test(code)) return code.charCodeAt(3);
  if (/^Digit\d$/.test(code)) return code.charCodeAt(5);
  if (/^Numpad\d$/.test(code)) return 96 + Number(code[6]);
  if (CODE_KEYS[code] !== undefined) return CODE_KEYS[code];
  if (NAMED_KEYS[key] !== undefined) return NAMED_KEYS[key];
  const c = Array.from(key).length === 1 ? key.toUpperCase().charCodeAt(0) : 0;
  return (c >= 65 && c <= 90) || (c >= 48 && c <= 57) ? c : key === ' ' ? 32 : 0;
}

/** Parameters of Input.dispatchKeyEvent for a key message. */
export function cdpKeyEvent(msg: KeyInput) {
  const vk = virtualKeyCode(msg.key, msg.code);
  const side = /^(?:Shift|Control|Alt|Meta)(Left|Right)$/.exec(msg.code)?.[1];
  const location = msg.code.startsWith('Numpad') ? 3 : side === 'Left' ? 1 : side === 'Right' ? 2 : 0;
  const down = msg.action === 'down';
  const text = down ? (msg.text ?? (msg.key === 'Enter' ? '\r' : undefined)) : undefined;
  return {
    type: !down ? ('keyUp' as const) : text ? ('keyDown' as const) : ('rawKeyDown' as const),
    modifiers: msg.modifiers,
    key: msg.key,
    code: msg.code,
    windowsVirtualKeyCode: vk,
    nativeVirtualKeyCode: vk,
    location,
    isKeypad: location === 3,
    ...(text ? { text, unmodifiedText: text } : {}),
  };
}

const BUTTON_BITS = { none: 0, left: 1, right: 2, middle: 4 } as const;

/** Parameters of Input.dispatchMouseEvent for a mouse message (buttons: the held button while moving). */
export function cdpMouseEvent(msg: MouseInput) {
  const type = msg.action === 'down' ? 'mousePressed' : msg.action === 'up' ? 'mouseReleased' : 'mouseMoved';
  return {
    type: type as 'mousePressed' | 'mouseReleased' | 'mouseMoved',
    x: msg.x,
    y: msg.y,
    button: msg.button,
    buttons: msg.action === 'up' ? 0 : BUTTON_BITS[msg.button],
    clickCount: msg.action === 'move' ? 0 : Math.max(1, msg.clickCount),
    modifiers: msg.modifiers,
  };
}

/** Parameters of Input.dispatchMouseEvent for a wheel message. */
export function cdpWheelEvent(msg: WheelInput) {
  const { x, y, deltaX, deltaY, modifiers } = msg;
  return { type: 'mouseWheel' as const, x, y, deltaX, deltaY, modifiers };
}
