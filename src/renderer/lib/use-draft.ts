// useState for form fields that outlives the screen: the value lives in the store's drafts (memory
// only), so switching screens and coming back shows the form as it was left.
import { useCallback } from 'react';
import { useAppStore } from '../stores/app-store';

export function useDraft<T>(
  key: string,
  initial: T | (() => T),
): [T, (next: T | ((prev: T) => T)) => void, () => void] {
  const stored = useAppStore((s) => s.drafts[key]) as T | undefined;
  const setDraft = useAppStore((s) => s.setDraft);
  const clearDraft = useAppStore((s) => s.clearDraft);
  const value = stored !== undefined ? stored : typeof initial === 'function' ? (initial as () => T)() : initial;
  const set = useCallback(
    (next: T | ((prev: T) => T)) => {
      const prev = useAppStore.getState().drafts[key] as T | undefined;
      const base = prev !== undefined ? prev : typeof initial === 'function' ? (initial as () => T)() : initial;
      setDraft(key, typeof next === 'function' ? (next as (p: T) => T)(base) : next);
    },
    // `initial` is only the starting value: a new object each render must not make a new setter.
    [key, setDraft],
  );
  const clear = useCallback(() => clearDraft(key), [key, clearDraft]);
  return [value, set, clear];
}
