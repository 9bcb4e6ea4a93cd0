// Updates under the person's control: the choices (how updates come, which releases) and where the releases are
// listed. Shared by the config schema (core/config), the IPC contract and the window.
import { z } from 'zod';

/** automatic: checked at start and every few hours, downloaded, installed when the app quits (or on Restart).
 * ask ("tell me"): checked, the window says a version is out, downloaded when the person asks.
 * off: nothing, not even a check. */
export const UPDATE_POLICIES = ['automatic', 'ask', 'off'] as const;
export type UpdatePolicy = (typeof UPDATE_POLICIES)[number];

/** stable: releases only; beta: prereleases too (whichever is newer). */
export const UPDATE_CHANNELS = ['stable', 'beta'] as const;
export type UpdateChannel = (typeof UPDATE_CHANNELS)[number];

/**
 * The GitHub repository the release workflow attaches the installers and their update files (latest*.yml, beta*.yml)
 * to: electron-builder.yml `publish` names the same one (test/unit/electron/electron-builder-config.test.ts).
 */
export const RELEASES_REPO = { owner: 'agent-studio', repo: 'agent-studio' } as const;

/** The default feed: the files of the newest (non-prerelease) GitHub release, by GitHub's stable redirect. */
export const DEFAULT_UPDATE_FEED_URL = `https://github.com/${RELEASES_REPO.owner}/${RELEASES_REPO.repo}/releases/latest/download/`;

export const UpdateSettingsSchema = z.object({
  policy: z.enum(UPDATE_POLICIES),
  channel: z.enum(UPDATE_CHANNELS),
  /** The folder (URL) that holds latest.yml / beta.yml and the files they name. */
  feedUrl: z.url({ protocol: /^https?$/ }),
});
export type UpdateSettings = z.infer<typeof UpdateSettingsSchema>;

/** Where the updater is, as the window shows it. */
export const UpdateStatusSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('off') }),
  z.object({ kind: z.literal('not-checked') }),
  z.object({ kind: z.literal('checking') }),
  z.object({ kind: z.literal('up-to-date'), checkedAt: z.number(), latest: z.string() }),
  /** A newer version is out (ask: downloaded when the person asks). */
  z.object({ kind: z.literal('available'), version: z.string(), checkedAt: z.number() }),
  z.object({ kind: z.literal('downloading'), version: z.string(), received: z.number(), total: z.number() }),
  /** Downloaded and checked (sha512 and size): a restart installs it. */
  z.object({ kind: z.literal('ready'), version: z.string(), checkedAt: z.number() }),
  z.object({
    kind: z.literal('failed'),
    step: z.enum(['check', 'download', 'install']),
    reason: z.string(),
    at: z.number(),
  }),
]);
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;

export const UpdateViewSchema = z.object({
  settings: UpdateSettingsSchema,
  /** The running app's version. */
  currentVersion: z.string(),
  status: UpdateStatusSchema,
  /** Why a restart would wait now (a login or a render runs), or null. */
  restartBlockedBy: z.string().nullable(),
  /** A restart was asked and waits for that work to end. */
  restartPending: z.boolean(),
});
export type UpdateView = z.infer<typeof UpdateViewSchema>;
