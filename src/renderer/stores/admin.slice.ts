import type { StateCreator } from 'zustand';

import type { Credits } from '../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../lib/api';

import { initialLoadable } from './loadable';
import type { AppState, AdminSlice } from './store-types';

export type { CreatedKey, KeyCreateInput } from './store-types';

export const createAdminSlice: StateCreator<AppState, [], [], AdminSlice> = (set, get) => {
  const orgId = () => get().adminOrgId;
  const patchOrg = (credits: Credits) =>
    set((s) => ({
      orgCredits: { status: 'ready', data: credits, error: null },
      orgs: {
        ...s.orgs,
        data: s.orgs.data.map((o) => (o.id === credits.org_id ? { ...o, balance: credits.balance } : o)),
      },
    }));
  return {
    orgs: initialLoadable([]),
    adminOrgId: null,
    keys: initialLoadable([]),
    orgCredits: initialLoadable(null),
    async loadOrgs() {
      set((s) => ({ orgs: { ...s.orgs, status: 'loading', error: null } }));
      try {
        const { data } = await invoke('orgs:list');
        const current = orgId();
        const keep = current && data.some((o) => o.id === current);
        set({ orgs: { status: 'ready', data, error: null } });
        if (!keep) {
          const chosen = data.find((o) => o.desktop) ?? data[0];
          if (chosen) await get().selectAdminOrg(chosen.id);
        }
      } catch (err) {
        set((s) => ({ orgs: { ...s.orgs, status: 'error', error: errorMessage(err) } }));
      }
    },
    async selectAdminOrg(id) {
      set({ adminOrgId: id, keys: initialLoadable([]), orgCredits: initialLoadable(null) });
      await Promise.all([get().loadKeys(), get().loadOrgCredits()]);
    },
    async createOrg(name) {
      const org = await invoke('orgs:create', { name });
      set((s) => ({ orgs: { ...s.orgs, data: [...s.orgs.data, org] } }));
      await get().selectAdminOrg(org.id);
      return org;
    },
    async switchWindowOrg(id) {
      await invoke('orgs:useInWindow', { orgId: id });
      // Every list in the store (sessions, templates, generations, credits…) was the old organization's.
      window.location.reload();
    },
    async setOrgBrowserProfiles(id, allowed) {
      const org = await invoke('orgs:setBrowserProfiles', { orgId: id, allowed });
      set((s) => ({ orgs: { ...s.orgs, data: s.orgs.data.map((o) => (o.id === org.id ? org : o)) } }));
    },
    async loadKeys() {
      const id = orgId();
      if (!id) return;
      set((s) => ({ keys: { ...s.keys, status: 'loading', error: null } }));
      try {
        const { data } = await invoke('keys:list', { orgId: id });
        if (orgId() === id) set({ keys: { status: 'ready', data, error: null } });
      } catch (err) {
        set((s) => ({ keys: { ...s.keys, status: 'error', error: errorMessage(err) } }));
      }
    },
    async createKey(input) {
      const id = orgId();
      if (!id) throw new Error('Choose an organization first.');
      const created = await invoke('keys:create', { ...input, orgId: id });
      set((s) => ({ keys: { ...s.keys, data: [...s.keys.data, created.info] } }));
      void get().loadOrgs();
      return created;
    },
    async revokeKey(id) {
      const revoked = await invoke('keys:revoke', { id });
      set((s) => ({ keys: { ...s.keys, data: s.keys.data.map((k) => (k.id === id ? revoked : k)) } }));
      void get().loadOrgs();
    },
    async loadOrgCredits() {
      const id = orgId();
      if (!id) return;
      set((s) => ({ orgCredits: { ...s.orgCredits, status: 'loading', error: null } }));
      try {
        const credits = await invoke('orgs:credits', { orgId: id });
        if (orgId() === id) patchOrg(credits);
      } catch (err) {
        set((s) => ({ orgCredits: { ...s.orgCredits, status: 'error', error: errorMessage(err) } }));
      }
    },
    async grantCredits(amount) {
      const id = orgId();
      if (!id) throw new Error('Choose an organization first.');
      patchOrg(await invoke('orgs:grantCredits', { orgId: id, amount }));
      // The Generate screen's balance is this window's organization's.
      void get().loadBalance();
    },
  };
};
