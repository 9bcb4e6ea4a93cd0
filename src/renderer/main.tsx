import './lib/zod-setup';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';

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
