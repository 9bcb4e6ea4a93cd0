// The app's keyboard shortcuts: one list, used by the key handler and by the shortcuts overlay (and
// written down in docs/desktop-app.md#forms-and-keyboard). "Mod" is ⌘ on macOS and Ctrl elsewhere.
import { useEffect } from 'react';
import type { Screen } from '../stores/nav.slice';

/** The screens in sidebar order: Mod+1 … Mod+7 open them. */
export const SCREEN_ORDER: { screen: Screen; label: string }[] = [
  { screen: 'sessions', label: 'Sessions' },
  { screen: 'templates', label: 'Templates' },
  { screen: 'generate', label: 'Generate' },
  { screen: 'generations', label: 'Generations' },
  { screen: 'characters', label: 'Characters' },
  { screen: 'uploads', label: 'Uploads' },
  { screen: 'settings', label: 'Settings' },
];

export const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
export const modKeyName = () => (isMac() ? '⌘' : 'Ctrl');

export interface ShortcutDoc {
  keys: string[];
  does: string;
}

export function shortcutDocs(): ShortcutDoc[] {
  const mod = modKeyName();
  return [
    ...SCREEN_ORDER.map((s, i) => ({ keys: [mod, String(i + 1)], does: `Open ${s.label}` })),
    { keys: [mod, ','], does: 'Open Settings' },
    { keys: [mod, 'Enter'], does: 'Submit the form you are in (run the login, generate, save)' },
    { keys: ['?'], does: 'Show or hide this list (also F1)' },
    { keys: ['Esc'], does: 'Close this list' },
  ];
}

const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** The form Mod+Enter submits: the one holding the focus, else the screen's main one. */
function formToSubmit(target: EventTarget | null): HTMLFormElement | null {
  const own = target instanceof HTMLElement ? target.closest('form') : null;
  return own ?? document.querySelector<HTMLFormElement>('main form[data-primary-form]');
}

export function useGlobalShortcuts(actions: {
  navigate(screen: Screen): void;
  toggleHelp(): void;
  closeHelp(): void;
}): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = isMac() ? e.metaKey : e.ctrlKey;
      if (mod && !e.altKey && !e.shiftKey && /^[1-9]$/.test(e.key)) {
        const target = SCREEN_ORDER[Number(e.key) - 1];
        if (!target) return;
        e.preventDefault();
        actions.navigate(target.screen);
      } else if (mod && e.key === ',') {
        e.preventDefault();
        actions.navigate('settings');
      } else if (mod && e.key === 'Enter') {
        const form = formToSubmit(e.target);
        if (!form) return;
        e.preventDefault();
        form.requestSubmit();
      } else if (e.key === 'F1' || (e.key === '?' && !mod && !typingIn(e.target))) {
        e.preventDefault();
        actions.toggleHelp();
      } else if (e.key === 'Escape') {
        actions.closeHelp();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions]);
}
