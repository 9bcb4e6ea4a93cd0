import './lib/zod-setup';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { rememberedTheme, resolveTheme } from './lib/theme';
import './styles.css';
import './results.css';
import './features/settings/settings.css';
// After the screens' sheets: the narrow-window layout overrides their widths.
import './responsive.css';
// Last: the dark palette overrides the light colours of the sheets above.
import './theme.css';

// The cached theme before the first paint, so a dark window never flashes light.
document.documentElement.dataset.theme = resolveTheme(
  rememberedTheme(),
  window.matchMedia('(prefers-color-scheme: dark)').matches,
);

/** Marks the document once the first render is on screen: end-to-end tests wait on `data-app-ready`. */
function AppReady({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true';
  }, []);
  return children;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppReady>
      <App />
    </AppReady>
  </StrictMode>,
);
