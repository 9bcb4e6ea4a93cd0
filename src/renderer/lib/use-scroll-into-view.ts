import { useEffect, useRef } from 'react';

/** A ref whose element is scrolled into view each time `key` changes to a non-null value (a new result). */
export function useScrollIntoView<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T | null>(null);
  useEffect(() => {
    if (key === null || key === undefined || key === false) return;
    ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [key]);
  return ref;
}
