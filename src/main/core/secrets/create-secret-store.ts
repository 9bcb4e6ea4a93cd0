import type { AppConfig } from '../config/config.schema.js';
import type { SettingsRepo } from '../db/settings.repo.js';
import { ResolvingSecretStore } from './resolving-secret-store.js';
import type { SecretStore } from './secret-store.js';

export interface SecretStoreDeps {
  settings: SettingsRepo;
  installId: string;
  notify: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** The OS keychain when reachable, else (or when chosen) the encrypted file; see ResolvingSecretStore. */
export function createSecretStore(config: AppConfig, deps: SecretStoreDeps): SecretStore {
  return new ResolvingSecretStore({
    preference: config.secrets.backend,
    dataDir: config.dataDir,
    keychainService: config.secrets.service,
    masterKeyEnv: config.secrets.masterKeyEnv,
    env: deps.env ?? process.env,
    record: {
      get: () => {
        const v = deps.settings.get('secrets_backend');
        return v === 'keychain' || v === 'file' ? v : null;
      },
      set: (b) => deps.settings.set('secrets_backend', b),
    },
    accountPrefix: `${deps.installId}:`,
    notify: deps.notify,
  });
}
