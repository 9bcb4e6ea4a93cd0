// Light, dark or as the OS says: the choice is kept by the app (settings:setTheme) and cached here so
// the first paint already has the right colours; `data-theme` on <html> selects the palette in CSS.
import { useEffect } from 'react';
import type { Theme } from '../../shared/ipc-contract.js';

const CACHE_KEY = 'agent-studio:theme';
const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

export function rememberedTheme(): Theme {
  try {
    const cached = localStorage.getItem(CACHE_KEY) as Theme | null;
    return cached && THEMES.includes(cached) ? cached : 'system';
  } catch {
    return 'system';
  }
}

export function rememberTheme(theme: Theme): void {
  try {
    localStorage.setItem(CACHE_KEY, theme);
  } catch {
    // No storage (a locked-down profile): the app's own setting still applies on the next load.
  }
}

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

export function resolveTheme(choice: Theme, osPrefersDark: boolean): 'light' | 'dark' {
  return choice === 'system' ? (osPrefersDark ? 'dark' : 'light') : choice;
}

function apply(choice: Theme): void {
  const resolved = resolveTheme(choice, darkQuery().matches);
  const root = document.documentElement;
  root.dataset.theme = resolved;
  root.dataset.themeChoice = choice;
  root.style.colorScheme = resolved;
}

/** Applies the choice now and, for "system", again whenever the OS switches. */
export function useAppliedTheme(choice: Theme): void {
  useEffect(() => {
    apply(choice);
    if (choice !== 'system') return;
    const query = darkQuery();
    const onChange = () => apply(choice);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [choice]);
}
