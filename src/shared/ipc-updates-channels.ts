// Settings → Updates' part of the IPC contract (spread into IPC_CONTRACT in ipc-contract.ts): the policy and channel
// (kept in config.json `updates`), a check, a download and the restart that installs, each answered with what the
// updater now is (core/desktop/update-service.ts). The feed address is set in config.json only.
import { z } from 'zod';
import { UPDATE_CHANNELS, UPDATE_POLICIES, UpdateViewSchema } from './updates.schema.js';

const noArgs = z.undefined();

export const UPDATES_CHANNELS = {
  'updates:get': { kind: 'local', args: noArgs, result: UpdateViewSchema },
  /** Saves the policy and channel (config.json) and applies them at once: off stops every check. */
  'updates:set': {
    kind: 'local',
    args: z.object({ policy: z.enum(UPDATE_POLICIES), channel: z.enum(UPDATE_CHANNELS) }).strict(),
    result: UpdateViewSchema,
  },
  /** Reads the feed now (refused while updates are off); the answer is the outcome. */
  'updates:check': { kind: 'local', args: noArgs, result: UpdateViewSchema },
  /** Downloads the version found and checks it (sha512, size); answered when it is ready or refused. */
  'updates:download': { kind: 'local', args: noArgs, result: UpdateViewSchema },
  /** Restarts into the downloaded version, or, while a login or a render runs, as soon as it ends. */
  'updates:install': { kind: 'local', args: noArgs, result: UpdateViewSchema },
} as const;
