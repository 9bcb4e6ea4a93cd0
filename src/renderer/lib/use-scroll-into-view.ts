import { useEffect, useRef } from 'react';

/**
 * Scrolls `el` into the content's view, the one way every outcome is brought into view. The room kept above and
 * below it is the content scroller's `scroll-padding` (one rule, `.content` in styles.css), so an outcome never
 * ends flush with the window's edge nor starts under the bar above the content. An outcome taller than the view
 * (or with `start`) shows its start (its headline: "Logged in", "Login failed"), not its end. Only the content
 * scrolls: Element.scrollIntoView would also scroll the window itself, lifting the bar out of sight.
 */
export function bringIntoView(el: HTMLElement, opts: { smooth?: boolean; start?: boolean } = {}): void {
  const still = !opts.smooth || (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false);
  const behavior: ScrollBehavior = still ? 'auto' : 'smooth';
  const scroller = el.closest<HTMLElement>('.content');
  if (!scroller) {
    el.scrollIntoView({ block: opts.start ? 'start' : 'nearest', behavior });
    return;
  }
  const style = getComputedStyle(scroller);
  const view = scroller.getBoundingClientRect();
  const top = view.top + (parseFloat(style.scrollPaddingTop) || 0);
  const bottom = view.top + scroller.clientHeight - (parseFloat(style.scrollPaddingBottom) || 0);
  const box = el.getBoundingClientRect();
  let by = 0;
  if (opts.start || box.top < top || box.height > bottom - top) by = box.top - top;
  else if (box.bottom > bottom) by = box.bottom - bottom;
  if (by !== 0) scroller.scrollBy({ top: by, behavior });
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
    // An outcome that fills in after it appeared (its rows loading, a login's steps arriving), or that moves as the
    // screen above it reloads (a list shrinking to "Loading…"), is kept in view, until the person scrolls, clicks or
    // types in the content: then where they are is theirs.
    const scroller = el.closest<HTMLElement>('.content');
    if (!scroller || typeof ResizeObserver === 'undefined') return;
    let first = true;
    const follow = new ResizeObserver(() => {
      if (first) first = false;
      else bringIntoView(el);
    });
    follow.observe(el);
    const screen = el.closest('.page');
    if (screen) follow.observe(screen);
    const stop = () => follow.disconnect();
    const acts = ['wheel', 'pointerdown', 'keydown', 'touchstart'] as const;
    for (const a of acts) scroller.addEventListener(a, stop, { passive: true });
    return () => {
      stop();
      for (const a of acts) scroller.removeEventListener(a, stop);
    };
  }, [key, focus]);
  return ref;
}
