import type { StateCreator } from 'zustand';
import type {
  ChannelArgs,
  LoginMethodInfo,
  Mailbox,
  MailboxTestResult,
  WebhookSecret,
} from '../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../lib/api';
import type { AppState } from './app-store';
import { initialLoadable, type Loadable } from './loadable';

export type MailboxInput = ChannelArgs<'mailboxes:create'>['body'];

/** The login methods the server serves, its mailboxes, and the video service's webhook secret (API routes). */
export interface IntegrationsSlice {
  /** GET /api/login/methods: the login form offers these, with the fields each needs. */
  loginMethods: Loadable<LoginMethodInfo[]>;
  loadLoginMethods(): Promise<void>;
  mailboxes: Loadable<Mailbox[]>;
  /** The last check of each mailbox, by id. */
  mailboxChecks: Record<string, { running: boolean; result: MailboxTestResult | null; error: string | null }>;
  loadMailboxes(): Promise<void>;
  addMailbox(input: MailboxInput): Promise<Mailbox>;
  removeMailbox(id: string): Promise<void>;
  testMailbox(id: string): Promise<void>;
  webhookSecret: Loadable<WebhookSecret | null>;
  loadWebhookSecret(): Promise<void>;
  rotateWebhookSecret(): Promise<void>;
}

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
