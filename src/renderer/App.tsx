import { useEffect, useMemo, useState } from 'react';
import { ShortcutsOverlay } from './components/ShortcutsOverlay';
import { Sidebar } from './components/Sidebar';
import { Notice } from './components/StatusViews';
import { BrowserProfilesScreen } from './features/browser-profiles/BrowserProfilesScreen';
import { CharactersScreen } from './features/characters/CharactersScreen';
import { GenerateScreen } from './features/generate/GenerateScreen';
import { GenerationsScreen } from './features/generations/GenerationsScreen';
import { NeedsYou } from './features/needs-you/NeedsYou';
import { SavedLoginsScreen } from './features/saved-logins/SavedLoginsScreen';
import { SessionsScreen } from './features/sessions/SessionsScreen';
import { SettingsScreen } from './features/settings/SettingsScreen';
import { TemplatesScreen } from './features/templates/TemplatesScreen';
import { UploadsScreen } from './features/uploads/UploadsScreen';
import { hasBridge } from './lib/api';
import { useGlobalShortcuts } from './lib/shortcuts';
import { useAppliedTheme } from './lib/theme';
import { useAppEvent } from './lib/use-app-event';
import { useAppStore } from './stores/app-store';

const SCREENS = {
  sessions: SessionsScreen,
  'saved-logins': SavedLoginsScreen,
  'browser-profiles': BrowserProfilesScreen,
  templates: TemplatesScreen,
  uploads: UploadsScreen,
  characters: CharactersScreen,
  generate: GenerateScreen,
  generations: GenerationsScreen,
  settings: SettingsScreen,
};

export function App() {
  if (!hasBridge()) {
    return (
      <div className="no-bridge" role="alert">
        <h1>Agent Studio</h1>
        <p>This page is the Agent Studio desktop interface; open it from the desktop app.</p>
      </div>
    );
  }
  return <Shell />;
}

function Shell() {
  const screen = useAppStore((s) => s.screen);
  const info = useAppStore((s) => s.appInfo);
  const loadAppInfo = useAppStore((s) => s.loadAppInfo);
  const applyUploadProgress = useAppStore((s) => s.applyUploadProgress);
  const applyGenerationProgress = useAppStore((s) => s.applyGenerationProgress);
  const applyGenerationFinished = useAppStore((s) => s.applyGenerationFinished);
  const applyLoginStep = useAppStore((s) => s.applyLoginStep);
  const applySavedLoginTestStep = useAppStore((s) => s.applySavedLoginTestStep);
  const applyLoginNeedsPerson = useAppStore((s) => s.applyLoginNeedsPerson);
  const applyLoginFinished = useAppStore((s) => s.applyLoginFinished);
  const navigate = useAppStore((s) => s.navigate);
  const theme = useAppStore((s) => s.theme);
  const loadSettings = useAppStore((s) => s.loadSettings);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);

  useEffect(() => {
    void loadAppInfo();
    // The theme choice is part of the settings.
    void loadSettings();
  }, [loadAppInfo, loadSettings]);
  useAppliedTheme(theme);
  // A new screen starts at its top, not where the last one was scrolled to.
  useEffect(() => {
    document.getElementById('main')?.scrollTo({ top: 0 });
  }, [screen]);
  const shortcutActions = useMemo(
    () => ({
      navigate: (screen: Parameters<typeof navigate>[0]) => navigate(screen),
      toggleHelp: () => setShortcutsOpen((open) => !open),
      closeHelp: () => setShortcutsOpen(false),
    }),
    [navigate],
  );
  useGlobalShortcuts(shortcutActions);
  useAppEvent('upload:progress', applyUploadProgress);
  useAppEvent('generation:progress', applyGenerationProgress);
  useAppEvent('generation:finished', applyGenerationFinished);
  useAppEvent('login:step', applyLoginStep);
  // A saved login's Test now reports its steps the same way (by its own login id).
  useAppEvent('login:step', applySavedLoginTestStep);
  // Logins waiting for the person: the "Needs you" banner on every screen.
  useAppEvent('login:needs-person', applyLoginNeedsPerson);
  useAppEvent('login:finished', applyLoginFinished);

  const Current = SCREENS[screen];
  return (
    <div className="app-shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // Focus, not navigation: the window's address stays as it is.
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <Sidebar onShowShortcuts={() => setShortcutsOpen(true)} />
      <main className="content" id="main" tabIndex={-1} data-testid={`screen-${screen}`}>
        <NeedsYou />
        {info?.serverError ? (
          <Notice tone="warning">
            {info.serverError}{' '}
            {screen !== 'settings' ? (
              <button type="button" className="btn btn-secondary btn-small" onClick={() => navigate('settings')}>
                Open Settings
              </button>
            ) : null}
          </Notice>
        ) : null}
        {info && !info.hasDesktopKey && info.secretStoreError ? (
          <Notice tone="warning">
            The secret store is not available, so this window uses a temporary key that ends when the app closes.{' '}
            {info.secretStoreError}
          </Notice>
        ) : null}
        {info?.secretsMissing ? <Notice tone="warning">{info.secretsMissing}</Notice> : null}
        <Current />
      </main>
      {shortcutsOpen ? <ShortcutsOverlay onClose={() => setShortcutsOpen(false)} /> : null}
    </div>
  );
}
