// The "Your browsers" screen's part of the IPC contract (spread into IPC_CONTRACT in ipc-contract.ts, the one table):
// the person's own browser profiles, listed and imported from by the person at this machine. Answered by the main
// process straight through the core (core/desktop/profiles-channels.ts): never an HTTP route, never an API key.
// The renderer never gets a cookie value: an import answers what the session check saw and how much came along.
import { z } from 'zod';
import { BrowserProfileSchema, SessionImportRequestSchema } from './browser-profiles.schema.js';
import type { Channel } from './ipc-channel.js';
import { SESSION_STATUSES } from './login.schema.js';

/** One imported site as the window sees it: the storageState stays in the core (the session cache). */
export const ImportedSiteSchema = z.object({
  /** The cached session (null when the check found it signed out: not kept). */
  session_id: z.string().nullable(),
  origin: z.string(),
  valid: z.boolean(),
  status: z.enum(SESSION_STATUSES),
  /** What the session check saw (secret-free). */
  evidence: z.array(z.string()),
  cookies: z.number().int().min(0),
  /** localStorage items that came along (Chromium browsers). */
  localStorage: z.number().int().min(0),
});
export type ImportedSite = z.infer<typeof ImportedSiteSchema>;

export const PROFILES_CHANNELS = {
  /** The profiles found on this machine, and the home directories searched (for an empty list's message). */
  'browserProfiles:list': {
    kind: 'local',
    args: z.undefined(),
    result: z.object({ data: z.array(BrowserProfileSchema), roots: z.array(z.string()) }),
  },
  /**
   * Imports the sites' sessions from one profile into the session cache of the window's organization, each checked
   * at once; recorded in the use log as `desktop`. Failures (PROFILE_LOCKED, KEYCHAIN_REFUSED, …) are values.
   */
  'browserProfiles:import': {
    kind: 'local',
    args: SessionImportRequestSchema.pick({ profile: true, sites: true }).strict(),
    result: z.object({ sessions: z.array(ImportedSiteSchema) }),
  },
} as const satisfies Record<string, Channel>;
