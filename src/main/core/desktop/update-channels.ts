// Settings → Updates' main-only channels over the app's one UpdateService: what it is, a new policy and channel
// (written to config.json `updates`, the file the core reads at start, and applied at once without a core restart),
// a check, a download and the restart that installs. Plain Node: the Electron layer makes the service
// (electron/updater.ts); the e2e bridge makes one over a stand-in feed.
import { UpdateSettingsSchema } from '../../../shared/updates.schema.js';
import { AppError } from '../errors.js';
import { configFileOf, readConfigFile, writeConfigFile } from './desktop-config.js';
import { fail } from './http-channel.js';
import type { LocalHandlers } from './ipc-dispatcher.js';
import type { UpdateService } from './update-service.js';

export type UpdatesChannelName =
  'updates:get' | 'updates:set' | 'updates:check' | 'updates:download' | 'updates:install';

type Answer = ReturnType<UpdateService['view']>;

async function answer(run: () => Answer | Promise<Answer>) {
  try {
    return { ok: true as const, value: await run() };
  } catch (err) {
    if (err instanceof AppError) return fail(err.code, err.message);
    throw err;
  }
}

export function updatesChannels(deps: {
  updates: UpdateService;
  /** The running core's data folder: its config.json keeps the choice. */
  dataDir(): string;
}): Pick<LocalHandlers, UpdatesChannelName> {
  return {
    'updates:get': async () => ({ ok: true, value: deps.updates.view() }),
    'updates:set': async ({ policy, channel }) => {
      const file = configFileOf(deps.dataDir());
      const content = readConfigFile(file);
      const kept = typeof content.updates === 'object' && content.updates !== null ? content.updates : {};
      writeConfigFile(file, { ...content, updates: { ...kept, policy, channel } });
      const next = UpdateSettingsSchema.parse({ ...deps.updates.view().settings, policy, channel });
      return answer(() => deps.updates.configure(next));
    },
    'updates:check': () => answer(() => deps.updates.check()),
    'updates:download': () => answer(() => deps.updates.download()),
    'updates:install': () => answer(() => deps.updates.install()),
  };
}
