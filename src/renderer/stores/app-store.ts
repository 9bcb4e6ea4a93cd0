import { create } from 'zustand';
import { createAppInfoSlice, type AppInfoSlice } from './app-info.slice';
import { createCharactersSlice, type CharactersSlice } from './characters.slice';
import { createCreditsSlice, type CreditsSlice } from './credits.slice';
import { createGenerationsSlice, type GenerationsSlice } from './generations.slice';
import { createNavSlice, type NavSlice } from './nav.slice';
import { createSessionsSlice, type SessionsSlice } from './sessions.slice';
import { createTemplatesSlice, type TemplatesSlice } from './templates.slice';
import { createUploadsSlice, type UploadsSlice } from './uploads.slice';

export type AppState = NavSlice &
  AppInfoSlice &
  SessionsSlice &
  TemplatesSlice &
  CharactersSlice &
  UploadsSlice &
  GenerationsSlice &
  CreditsSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createNavSlice(...a),
  ...createAppInfoSlice(...a),
  ...createSessionsSlice(...a),
  ...createTemplatesSlice(...a),
  ...createCharactersSlice(...a),
  ...createUploadsSlice(...a),
  ...createGenerationsSlice(...a),
  ...createCreditsSlice(...a),
}));
