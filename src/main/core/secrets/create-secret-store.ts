import path from 'node:path';
import type { AppConfig } from '../config/config.schema.js';
import { EncryptedFileSecretStore } from './encrypted-file-store.js';
import { KeytarSecretStore } from './keytar-store.js';
import type { SecretStore } from './secret-store.js';

export function createSecretStore(config: AppConfig, env: NodeJS.ProcessEnv = process.env): SecretStore {
  if (config.secrets.backend === 'file') {
    return new EncryptedFileSecretStore(
      path.join(config.dataDir, 'secrets.enc.json'),
      env[config.secrets.masterKeyEnv],
      config.secrets.masterKeyEnv,
    );
  }
  return new KeytarSecretStore(config.secrets.service);
}
