import { create } from 'zustand';
import { createAdminSlice } from './admin.slice';
import { createAppInfoSlice } from './app-info.slice';
import { createBrowserProfilesSlice } from './browser-profiles.slice';
import { createCharactersSlice } from './characters.slice';
import { createCreditsSlice } from './credits.slice';
import { createDraftsSlice } from './drafts.slice';
import { createGenerationsSlice } from './generations.slice';
import { createIntegrationsSlice } from './integrations.slice';
import { createLoginHelpSlice } from './login-help.slice';
import { createLoginRunsSlice } from './login-runs.slice';
import { createNavSlice } from './nav.slice';
import { createSavedLoginsSlice } from './saved-logins.slice';
import { createSessionsSlice } from './sessions.slice';
import { createSettingsSlice } from './settings.slice';
import { createTemplatesSlice } from './templates.slice';
import { createUploadsSlice } from './uploads.slice';
import type { AppState } from './store-types';

export type { AppState };

export const useAppStore = create<AppState>()((...a) => ({
  ...createNavSlice(...a),
  ...createAppInfoSlice(...a),
  ...createSessionsSlice(...a),
  ...createTemplatesSlice(...a),
  ...createCharactersSlice(...a),
  ...createUploadsSlice(...a),
  ...createGenerationsSlice(...a),
  ...createCreditsSlice(...a),
  ...createDraftsSlice(...a),
  ...createSettingsSlice(...a),
  ...createAdminSlice(...a),
  ...createIntegrationsSlice(...a),
  ...createLoginRunsSlice(...a),
  ...createLoginHelpSlice(...a),
  ...createSavedLoginsSlice(...a),
  ...createBrowserProfilesSlice(...a),
}));
