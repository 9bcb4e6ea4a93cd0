import { useEffect, useRef } from 'react';

/**
 * Scrolls `el` into the content's view, the one way every outcome is brought into view. The room kept above and
 * below it is the content scroller's `scroll-padding` (one rule, `.content` in responsive.css), so an outcome never
 * ends flush with the window's edge nor starts under the bar above the content. An outcome taller than the view
 * shows its start (its headline: "Logged in", "Login failed"), not its end: `nearest` alone would align its bottom.
 */
export function bringIntoView(el: HTMLElement, opts: { smooth?: boolean } = {}): void {
  const scroller = el.closest<HTMLElement>('.content');
  let block: ScrollLogicalPosition = 'nearest';
  if (scroller) {
    const style = getComputedStyle(scroller);
    const room =
      scroller.clientHeight - (parseFloat(style.scrollPaddingTop) || 0) - (parseFloat(style.scrollPaddingBottom) || 0);
    if (el.getBoundingClientRect().height > room) block = 'start';
  }
  const still = !opts.smooth || (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false);
  el.scrollIntoView({ block, behavior: still ? 'auto' : 'smooth' });
}

/** Moves the focus to `el` (tabIndex -1 or a control) and brings it into view: the focus-after-action step. */
export function focusIntoView(el: HTMLElement | null | undefined, opts: { smooth?: boolean } = {}): void {
  if (!el) return;
  if (!el.contains(document.activeElement)) el.focus({ preventScroll: true });
  bringIntoView(el, opts);
}

/**
 * A ref whose element is scrolled into view each time `key` changes to a non-null value (a new result). With
 * `focus`, focus moves there too (the element has tabIndex -1): an outcome appears where the eye and the screen
 * reader are, not below the fold where a started login or a failure would look like nothing happened.
 */
export function useScrollIntoView<T extends HTMLElement>(key: unknown, opts: { focus?: boolean } = {}) {
  const ref = useRef<T | null>(null);
  const focus = opts.focus ?? false;
  // What was there when the screen opened is not news: coming back to a screen does not move focus.
  const atMount = useRef(key);
  useEffect(() => {
    if (key === null || key === undefined || key === false) return;
    if (focus && key === atMount.current) return;
    const el = ref.current;
    if (!el) return;
    if (focus) focusIntoView(el, { smooth: true });
    else bringIntoView(el, { smooth: true });
  }, [key, focus]);
  return ref;
}
