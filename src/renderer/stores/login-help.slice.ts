// Logins of the window's organization that wait for the person (README "A person in the loop"): the
// `login:needs-person` and `login:finished` events turned into the "Needs you" banner's lines, the panel that
// shows one login's live page, and what the banner says when a login arrives or ends. Memory only: a takeover
// URL carries its page's token and is never persisted, shown or logged.
import type { StateCreator } from 'zustand';
import { PERSON_TASK } from '../../shared/person-task.js';
import { ApiError, invoke } from '../lib/api';
import type { AppState, LoginHelpNews, LoginHelpSlice } from './store-types';

export type { LoginHelpNews, WaitingLogin } from './store-types';

const ENDED: Record<'succeeded' | 'failed' | 'cancelled', (site: string) => Omit<LoginHelpNews, 'seq' | 'shown'>> = {
  succeeded: (site) => ({ text: `Signed in to ${site}.`, tone: 'success' }),
  cancelled: (site) => ({ text: `The login on ${site} was cancelled.`, tone: 'info' }),
  failed: (site) => ({ text: `The login on ${site} failed.`, tone: 'warning' }),
};

export const createLoginHelpSlice: StateCreator<AppState, [], [], LoginHelpSlice> = (set, get) => {
  let seq = 0;
  const news = (n: Omit<LoginHelpNews, 'seq'>): LoginHelpNews => ({ ...n, seq: ++seq });
  /** Takes a login off the banner (and its panel) with the words said about it. */
  const remove = (loginId: string, said: Omit<LoginHelpNews, 'seq' | 'shown'>) =>
    set((s) => ({
      waitingLogins: s.waitingLogins.filter((w) => w.loginId !== loginId),
      livePageLoginId: s.livePageLoginId === loginId ? null : s.livePageLoginId,
      loginHelpNews: news({ ...said, shown: true }),
    }));

  return {
    waitingLogins: [],
    livePageLoginId: null,
    livePagePlace: 'banner',
    loginHelpNews: null,
    applyLoginNeedsPerson(p) {
      const waiting = { loginId: p.loginId, reason: p.reason, site: p.site, takeoverUrl: p.takeoverUrl };
      set((s) => {
        const known = s.waitingLogins.some((w) => w.loginId === p.loginId);
        return {
          waitingLogins: known
            ? s.waitingLogins.map((w) => (w.loginId === p.loginId ? waiting : w))
            : [...s.waitingLogins, waiting],
          // The banner shows the words; screen readers hear them once, here.
          loginHelpNews: news({ text: `${p.site} needs you: ${PERSON_TASK[p.reason]}.`, tone: 'info', shown: false }),
        };
      });
    },
    applyLoginFinished(p) {
      const waiting = get().waitingLogins.find((w) => w.loginId === p.loginId);
      // Logins that never waited for the person (most of them) end without a word here.
      if (!waiting) return;
      remove(p.loginId, ENDED[p.status](waiting.site));
      // Its session is cached now: a list already shown says so.
      if (p.status === 'succeeded' && get().sessions.status !== 'idle') void get().loadSessions();
    },
    showLivePage(loginId, place = 'banner') {
      set({ livePageLoginId: loginId, livePagePlace: place });
    },
    async cancelWaitingLogin(loginId) {
      try {
        await invoke('sessions:cancelLogin', { params: { id: loginId } });
      } catch (err) {
        // Already over (its end may have been missed, e.g. across a core restart): nothing is left to cancel.
        if (!(err instanceof ApiError && err.code.toLowerCase() === 'not_found')) throw err;
        const waiting = get().waitingLogins.find((w) => w.loginId === loginId);
        if (waiting) remove(loginId, { text: `The login on ${waiting.site} is already over.`, tone: 'info' });
      }
    },
    dismissLoginHelpNews() {
      set({ loginHelpNews: null });
    },
  };
};
