import type { Frame, Page } from 'playwright-core';
import type { DomHelpers } from './dom-helpers.js';
import { nextScanId, runInFrame } from './page-script.js';

/**
 * Typing and clicking on elements the scanner already judged (visible, enabled, editable) with
 * one look at the page instead of Playwright's actionability loop (six to eight round trips and,
 * for a click, two animation frames of "is it moving?"). A click is real mouse events at the
 * element's centre; whenever the quick look is not sure (covered, animating, in an iframe), the
 * caller falls back to Playwright's click, which waits and retries.
 *
 * Typing is bound to the element (docs/security.md#a-saved-secret-goes-only-where-it-belongs): focus, select and insert happen inside the
 * field's own document in one task, through the browser's editing (`insertText`: real `beforeinput`
 * / `input` events, which controlled React inputs need), never through the page-wide keyboard — text
 * sent to "whatever has focus" lands wherever a script moved the focus meanwhile. Where the browser's
 * editing does not take the text, the value is set on the element itself with an `input` event.
 */

/** Input types typed as text (others, like dates, take a value). */
const TYPED_INPUTS = ['text', 'email', 'password', 'tel', 'url', 'search', ''];

/**
 * What typing into a field came to: `typed`; `unfit` (not a text input or textarea: Playwright's fill
 * takes it); `elsewhere` (the focus was moved off the field while it was typed into: the login stops).
 */
export type TypingResult = 'typed' | 'unfit' | 'elsewhere';

/**
 * In-page: types `value` into the marked text field. `keyByKey` types one character at a time with
 * keydown / keyup around each (for widgets that drop a whole value inserted at once).
 */
export function typeIntoField(
  args: { id: string; value: string; types: string[]; keyByKey: boolean },
  h: DomHelpers,
): TypingResult {
  const el = h.findMarked(args.id);
  if (!el || !h.isVisible(el) || !h.isEditable(el)) return 'unfit';
  const isInput = el.tagName === 'INPUT' && args.types.includes((el.getAttribute('type') || '').toLowerCase());
  if (!isInput && el.tagName !== 'TEXTAREA') return 'unfit';
  const field = el as HTMLInputElement;
  const proto = isInput ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  const setValue = (v: string): void => {
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, v);
    field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: v }));
  };
  const focused = (): boolean => {
    field.focus();
    return h.activeElement() === el;
  };
  const insert = (text: string): boolean => {
    // Checked right before each insertion: the browser inserts into the focused element, which must be this one.
    if (!focused()) return false;
    return document.execCommand('insertText', false, text);
  };
  const key = (type: 'keydown' | 'keyup', ch: string): boolean =>
    field.dispatchEvent(new KeyboardEvent(type, { key: ch, bubbles: true, cancelable: true, composed: true }));
  if (!focused()) {
    setValue(args.value);
    field.dispatchEvent(new Event('change', { bubbles: true }));
    return 'typed';
  }
  field.select();
  if (args.keyByKey) {
    setValue('');
    for (const ch of Array.from(args.value)) {
      const before = field.value;
      if (key('keydown', ch) && !insert(ch) && h.activeElement() !== el) return 'elsewhere';
      key('keyup', ch);
      // The character went into another element than this one (a handler moved the focus): stop here.
      if (field.value === before && h.activeElement() !== el) return 'elsewhere';
    }
    return 'typed';
  }
  if (!insert(args.value)) {
    if (h.activeElement() !== el) return 'elsewhere';
    setValue(args.value);
  }
  return 'typed';
}

/**
 * In-page: the point (main-frame viewport coordinates) where a click reaches the marked element;
 * `disabled` for a visible control that is disabled (`disabled` or `aria-disabled="true"`); or null
 * when a quick look cannot vouch for it: hidden, moving (a CSS animation or transition on it or an
 * ancestor), or covered at its centre by something else.
 */
export function clickTarget(args: { id: string }, h: DomHelpers): { x: number; y: number } | 'disabled' | null {
  const el = h.findMarked(args.id);
  if (!el || !h.isVisible(el)) return null;
  if (h.isDisabled(el)) return 'disabled';
  for (let n: Element | null = el; n; n = h.parentOf(n)) {
    if (n.getAnimations().some((a) => a.playState === 'running')) return null;
  }
  let r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    r = el.getBoundingClientRect();
  }
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  let hit = document.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit && h.containsDeep(el, hit) ? { x, y } : null;
}

/** Types `value` into a scanned text field, bound to it (see typeIntoField). */
export async function typeInto(frame: Frame, id: string, value: string, keyByKey = false): Promise<TypingResult> {
  const done = await runInFrame(frame, typeIntoField, { id, value, types: TYPED_INPUTS, keyByKey }, nextScanId());
  return done ?? 'unfit';
}

/**
 * What the quick click came to: `clicked`; `disabled` (nothing clicked: the control is disabled, e.g. until the
 * page has validated its fields); `unsure` (nothing clicked: the quick way does not apply, use Playwright's click).
 */
export type QuickClick = 'clicked' | 'disabled' | 'unsure';

/** Clicks a scanned element with real mouse events, after one look at it (clickTarget). */
export async function clickAt(page: Page, frame: Frame, id: string): Promise<QuickClick> {
  const point = await runInFrame(frame, clickTarget, { id }, nextScanId());
  if (point === 'disabled') return 'disabled';
  // Coordinates inside an iframe would need its offset in the page: Playwright's click handles that.
  if (!point || frame !== page.mainFrame()) return 'unsure';
  await page.mouse.click(point.x, point.y);
  return 'clicked';
}
