import type { StateCreator } from 'zustand';

import { errorMessage, invoke } from '../lib/api';

import { initialLoadable } from './loadable';
import type { AppState, IntegrationsSlice } from './store-types';

export type { MailboxInput } from './store-types';

export const createIntegrationsSlice: StateCreator<AppState, [], [], IntegrationsSlice> = (set) => {
  const setCheck = (id: string, check: IntegrationsSlice['mailboxChecks'][string]) =>
    set((s) => ({ mailboxChecks: { ...s.mailboxChecks, [id]: check } }));
  return {
    loginMethods: initialLoadable([]),
    async loadLoginMethods() {
      set((s) => ({ loginMethods: { ...s.loginMethods, status: 'loading', error: null } }));
      try {
        const { data } = await invoke('login:methods');
        set({ loginMethods: { status: 'ready', data, error: null } });
      } catch (err) {
        set((s) => ({ loginMethods: { ...s.loginMethods, status: 'error', error: errorMessage(err) } }));
      }
    },
    mailboxes: initialLoadable([]),
    mailboxChecks: {},
    async loadMailboxes() {
      set((s) => ({ mailboxes: { ...s.mailboxes, status: 'loading', error: null } }));
      try {
        const { data } = await invoke('mailboxes:list');
        set({ mailboxes: { status: 'ready', data, error: null } });
      } catch (err) {
        set((s) => ({ mailboxes: { ...s.mailboxes, status: 'error', error: errorMessage(err) } }));
      }
    },
    async addMailbox(input) {
      const created = await invoke('mailboxes:create', { body: input });
      set((s) => ({ mailboxes: { ...s.mailboxes, data: [...s.mailboxes.data, created] } }));
      return created;
    },
    async removeMailbox(id) {
      await invoke('mailboxes:delete', { params: { id } });
      set((s) => {
        const { [id]: _gone, ...checks } = s.mailboxChecks;
        return {
          mailboxes: { ...s.mailboxes, data: s.mailboxes.data.filter((m) => m.id !== id) },
          mailboxChecks: checks,
        };
      });
    },
    async testMailbox(id) {
      setCheck(id, { running: true, result: null, error: null });
      try {
        setCheck(id, { running: false, result: await invoke('mailboxes:test', { params: { id } }), error: null });
      } catch (err) {
        setCheck(id, { running: false, result: null, error: errorMessage(err) });
      }
    },
    webhookSecret: initialLoadable(null),
    async loadWebhookSecret() {
      set((s) => ({ webhookSecret: { ...s.webhookSecret, status: 'loading', error: null } }));
      try {
        set({ webhookSecret: { status: 'ready', data: await invoke('webhooks:getSecret'), error: null } });
      } catch (err) {
        set((s) => ({ webhookSecret: { ...s.webhookSecret, status: 'error', error: errorMessage(err) } }));
      }
    },
    async rotateWebhookSecret() {
      const secret = await invoke('webhooks:rotateSecret');
      set({ webhookSecret: { status: 'ready', data: secret, error: null } });
    },
  };
};
