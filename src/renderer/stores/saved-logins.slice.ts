import type { StateCreator } from 'zustand';

import { errorMessage, invoke } from '../lib/api';

import { initialLoadable } from './loadable';
import type { AppState, SavedLoginsSlice, SavedLoginTest } from './store-types';

export type {
  SavedLoginCreateBody,
  SavedLoginTest,
  SavedLoginTestOutcome,
  SavedLoginUpdateBody,
  SavedLoginView,
} from './store-types';

const newLoginId = () => `ui-${crypto.randomUUID()}`;

export const createSavedLoginsSlice: StateCreator<AppState, [], [], SavedLoginsSlice> = (set, get) => {
  const patchTest = (id: string, loginId: string, change: Partial<SavedLoginTest>) =>
    set((s) => {
      const test = s.savedLoginTests[id];
      // A newer test of the same saved login replaced this one: its late answer changes nothing.
      if (!test || test.loginId !== loginId) return {};
      return { savedLoginTests: { ...s.savedLoginTests, [id]: { ...test, ...change } } };
    });

  return {
    savedLogins: initialLoadable([]),
    savedLoginView: { kind: 'list' },
    showSavedLogins: (view) => set({ savedLoginView: view }),
    openSavedLogin(id) {
      set({ savedLoginView: { kind: 'detail', id } });
      get().navigate('saved-logins');
    },
    async loadSavedLogins() {
      set((s) => ({ savedLogins: { ...s.savedLogins, status: 'loading', error: null } }));
      try {
        const { data } = await invoke('credentials:list');
        set({ savedLogins: { status: 'ready', data, error: null } });
      } catch (err) {
        set((s) => ({ savedLogins: { ...s.savedLogins, status: 'error', error: errorMessage(err) } }));
      }
    },
    async createSavedLogin(body) {
      const created = await invoke('credentials:create', { body });
      set((s) => ({ savedLogins: { ...s.savedLogins, data: [...s.savedLogins.data, created] } }));
      return created;
    },
    async updateSavedLogin(id, body, opts = {}) {
      // A move of where the secrets are typed, confirmed by the person, goes as the person (an API key could not).
      const args = { params: { id }, body };
      const updated = opts.confirmedMove
        ? await invoke('credentials:updateConfirmed', args)
        : await invoke('credentials:update', args);
      set((s) => ({
        savedLogins: { ...s.savedLogins, data: s.savedLogins.data.map((x) => (x.id === id ? updated : x)) },
      }));
      return updated;
    },
    async deleteSavedLogin(id) {
      await invoke('credentials:delete', { params: { id } });
      set((s) => {
        const { [id]: _uses, ...uses } = s.credentialUses;
        const { [id]: _test, ...tests } = s.savedLoginTests;
        return {
          savedLogins: { ...s.savedLogins, data: s.savedLogins.data.filter((x) => x.id !== id) },
          credentialUses: uses,
          savedLoginTests: tests,
        };
      });
    },
    credentialUses: {},
    async loadCredentialUses(id) {
      set((s) => ({
        credentialUses: {
          ...s.credentialUses,
          [id]: { ...(s.credentialUses[id] ?? initialLoadable([])), status: 'loading', error: null },
        },
      }));
      try {
        const { data } = await invoke('credentials:uses', { params: { id } });
        set((s) => ({ credentialUses: { ...s.credentialUses, [id]: { status: 'ready', data, error: null } } }));
      } catch (err) {
        set((s) => ({
          credentialUses: {
            ...s.credentialUses,
            [id]: { ...(s.credentialUses[id] ?? initialLoadable([])), status: 'error', error: errorMessage(err) },
          },
        }));
      }
    },
    shareKeys: initialLoadable([]),
    async loadShareKeys() {
      set((s) => ({ shareKeys: { ...s.shareKeys, status: 'loading', error: null } }));
      try {
        // The keys of this window's organization: the one orgs:list marks as the desktop's.
        const { data: orgs } = await invoke('orgs:list');
        const mine = orgs.find((o) => o.desktop);
        const { data } = mine ? await invoke('keys:list', { orgId: mine.id }) : { data: [] };
        set({ shareKeys: { status: 'ready', data, error: null } });
      } catch (err) {
        set((s) => ({ shareKeys: { ...s.shareKeys, status: 'error', error: errorMessage(err) } }));
      }
    },
    savedLoginTests: {},
    async testSavedLogin(id) {
      const loginId = newLoginId();
      const test: SavedLoginTest = {
        loginId,
        status: 'running',
        steps: [],
        startedAt: Date.now(),
        outcome: null,
        error: null,
      };
      set((s) => ({ savedLoginTests: { ...s.savedLoginTests, [id]: test } }));
      try {
        const outcome = await invoke('credentials:test', { id, loginId });
        patchTest(id, loginId, { status: outcome.ok ? 'succeeded' : 'failed', outcome });
      } catch (err) {
        patchTest(id, loginId, { status: 'failed', error: errorMessage(err) });
      }
      // The use log, "last used" and the sessions made from it all moved.
      void get().loadCredentialUses(id);
      void get().loadSavedLogins();
      void get().loadSessions();
      return get().savedLoginTests[id] ?? test;
    },
    applySavedLoginTestStep(p) {
      set((s) => {
        const entry = Object.entries(s.savedLoginTests).find(([, t]) => t.loginId === p.loginId);
        if (!entry) return {};
        const [id, test] = entry;
        const steps = [...test.steps, { step: p.step, elapsedMs: p.elapsedMs }];
        return { savedLoginTests: { ...s.savedLoginTests, [id]: { ...test, steps } } };
      });
    },
  };
};
