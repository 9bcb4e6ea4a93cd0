import { useEffect, useRef } from 'react';

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
    if (focus && !el.contains(document.activeElement)) el.focus({ preventScroll: true });
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    el.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
  }, [key, focus]);
  return ref;
}
