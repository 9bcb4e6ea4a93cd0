import type { Frame, Page } from 'playwright-core';
import type { DomHelpers } from './dom-helpers.js';
import { nextScanId, runInFrame } from './page-script.js';

/**
 * Typing and clicking on elements the scanner already judged (visible, enabled, editable) with
 * one look at the page instead of Playwright's actionability loop (six to eight round trips and,
 * for a click, two animation frames of "is it moving?"). The input itself is the same as
 * Playwright's: focus and select, then the text inserted by the browser (real `beforeinput` /
 * `input` events, which controlled React inputs need); a click is real mouse events at the
 * element's centre. Whenever the quick look is not sure (the element is covered, animating, in
 * an iframe, not a plain text field, or focus did not land), the caller falls back to the
 * Playwright action, which waits and retries.
 */

/** Input types Playwright fills by typing (not by setting `value`). */
const TYPED_INPUTS = ['text', 'email', 'password', 'tel', 'url', 'search', ''];

/** In-page: focuses a marked text field and selects its content (what Playwright's fill does before inserting). */
export function focusForTyping(args: { id: string; types: string[] }, h: DomHelpers): boolean {
  const el = h.findMarked(args.id);
  if (!el || !h.isVisible(el) || !h.isEditable(el)) return false;
  const isInput = el.tagName === 'INPUT' && args.types.includes((el.getAttribute('type') || '').toLowerCase());
  if (!isInput && el.tagName !== 'TEXTAREA') return false;
  const field = el as HTMLInputElement;
  field.select();
  field.focus();
  return h.activeElement() === el;
}

/**
 * In-page: the point (main-frame viewport coordinates) where a click reaches the marked element,
 * or null when a quick look cannot vouch for it: hidden, disabled, moving (a CSS animation or
 * transition on it or an ancestor), or covered at its centre by something else.
 */
export function clickTarget(args: { id: string }, h: DomHelpers): { x: number; y: number } | null {
  const el = h.findMarked(args.id);
  if (!el || !h.isVisible(el) || (el as HTMLButtonElement).disabled) return null;
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

/** Types `value` into a scanned text field; false when the quick way does not apply (use Playwright's fill). */
export async function typeInto(page: Page, frame: Frame, id: string, value: string): Promise<boolean> {
  if (!value) return false;
  const focused = await runInFrame(frame, focusForTyping, { id, types: TYPED_INPUTS }, nextScanId());
  if (!focused) return false;
  await page.keyboard.insertText(value);
  return true;
}

/** Clicks a scanned element with real mouse events; false when the quick way does not apply (use Playwright's click). */
export async function clickAt(page: Page, frame: Frame, id: string): Promise<boolean> {
  // Coordinates inside an iframe would need its offset in the page: Playwright's click handles that.
  if (frame !== page.mainFrame()) return false;
  const point = await runInFrame(frame, clickTarget, { id }, nextScanId());
  if (!point) return false;
  await page.mouse.click(point.x, point.y);
  return true;
}
