import { useEffect } from 'react';
import { Sidebar } from './components/Sidebar';
import { Notice } from './components/StatusViews';
import { CharactersScreen } from './features/characters/CharactersScreen';
import { GenerateScreen } from './features/generate/GenerateScreen';
import { GenerationsScreen } from './features/generations/GenerationsScreen';
import { SessionsScreen } from './features/sessions/SessionsScreen';
import { TemplatesScreen } from './features/templates/TemplatesScreen';
import { UploadsScreen } from './features/uploads/UploadsScreen';
import { hasBridge } from './lib/api';
import { useAppEvent } from './lib/use-app-event';
import { useAppStore } from './stores/app-store';

const SCREENS = {
  sessions: SessionsScreen,
  templates: TemplatesScreen,
  uploads: UploadsScreen,
  characters: CharactersScreen,
  generate: GenerateScreen,
  generations: GenerationsScreen,
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

  useEffect(() => {
    void loadAppInfo();
  }, [loadAppInfo]);
  useAppEvent('upload:progress', applyUploadProgress);
  useAppEvent('generation:progress', applyGenerationProgress);
  useAppEvent('generation:finished', applyGenerationFinished);

  const Current = SCREENS[screen];
  return (
    <div className="app-shell">
      <Sidebar />
      <main className="content" id="main" data-testid={`screen-${screen}`}>
        {info?.serverError ? <Notice tone="warning">{info.serverError}</Notice> : null}
        {info && !info.hasDesktopKey && info.secretStoreError ? (
          <Notice tone="warning">
            The secret store is not available, so this window uses a temporary key that ends when the app closes.{' '}
            {info.secretStoreError}
          </Notice>
        ) : null}
        <Current />
      </main>
    </div>
  );
}
