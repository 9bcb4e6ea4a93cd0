// Your browsers, what only the person at this machine starts (no HTTP route, no API key): list their own browser
// profiles and import sites' sessions from one, straight through the core like the CLI (cli-sessions-import.ts).
// The import's storageState stays in the session cache: the window gets the check's verdict and counts, never a
// cookie value. Refusals (a locked profile, a keychain that says no, Chrome's app-bound encryption) are failure
// values with the service's UPPER_CODE and its plain message, as the HTTP route answers them. The service itself
// (login/profiles) is handed in by the Electron layer: desktop/ uses no feature directly (scripts/core-deps.mjs).
import os from 'node:os';
import type { IpcResult } from '../../../shared/errors.js';
import type { ImportedSite } from '../../../shared/ipc-profiles-channels.js';
import type {
  BrowserProfile,
  SessionImportRequest,
  SessionImportResult,
} from '../../../shared/browser-profiles.schema.js';
import { AppError } from '../errors.js';
import { fail } from './http-channel.js';
import type { HostedCore } from './core-host.js';
import type { LocalHandlers } from './ipc-dispatcher.js';

/** What the channels use of the core's browser-profile service (login/profiles: browserProfiles(core)). */
export interface ProfilesService {
  list(): BrowserProfile[];
  import(
    who: { orgId: string; keyId: null; via: 'desktop' },
    req: Pick<SessionImportRequest, 'profile' | 'sites'>,
  ): Promise<SessionImportResult>;
}

export type ProfilesChannelName = 'browserProfiles:list' | 'browserProfiles:import';

/** A refusal of the service in the login API's code form (PROFILE_LOCKED …); anything else is a bug and throws. */
function refusal(err: unknown): IpcResult<never> {
  if (!(err instanceof AppError)) throw err;
  return fail(err.code.toUpperCase(), err.message, { status: err.status, ...err.details });
}

export function profilesChannels(opts: {
  host: { current(): HostedCore };
  /** The current core's service (a restarted core has its own). */
  profiles(core: HostedCore['core']): ProfilesService;
}): Pick<LocalHandlers, ProfilesChannelName> {
  const core = () => opts.host.current().core;
  return {
    'browserProfiles:list': async () => {
      try {
        const roots = core().config.browserProfiles.roots;
        const data = opts.profiles(core()).list();
        return { ok: true, value: { data, roots: roots?.length ? [...roots] : [os.homedir()] } };
      } catch (err) {
        return refusal(err);
      }
    },
    'browserProfiles:import': async ({ profile, sites }) => {
      try {
        const who = { orgId: opts.host.current().desktop.orgId, keyId: null, via: 'desktop' as const };
        const result = await opts.profiles(core()).import(who, { profile, sites });
        const sessions: ImportedSite[] = result.sessions.map(({ state, ...s }) => ({
          session_id: s.session_id,
          origin: s.origin,
          valid: s.valid,
          status: s.status,
          evidence: s.evidence,
          cookies: state.cookies.length,
          localStorage: state.origins.reduce((n, o) => n + o.localStorage.length, 0),
        }));
        return { ok: true, value: { sessions } };
      } catch (err) {
        return refusal(err);
      }
    },
  };
}
