import type { Db } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import { CredentialImporter } from './credential-importer.js';
import { CredentialUsesRepo } from './credential-uses.repo.js';
import { createSavedLoginsImport } from './saved-logins-import.js';
import { SavedLoginsRepo } from './saved-logins.repo.js';
import { SavedLoginsService } from './saved-logins.service.js';
import { Vault } from './vault.js';

export { Vault, type VaultCaller } from './vault.js';
export type { SavedLoginsService } from './saved-logins.service.js';

/** Saved logins (docs/saved-logins.md): the vault, its table and its use log. */
export function createVault(deps: {
  db: Db;
  secrets: SecretStore;
  log: Logger;
  oauthOrigins: { google: string[]; github: string[] };
  hasMailbox: (orgId: string, id: string) => boolean;
  keyIds: (orgId: string) => string[];
}): Vault {
  const log = deps.log.child({ component: 'vault' });
  const repo = new SavedLoginsRepo(deps.db);
  const savedLogins = new SavedLoginsService({
    repo,
    uses: new CredentialUsesRepo(deps.db),
    secrets: deps.secrets,
    log,
    oauthOrigins: deps.oauthOrigins,
    hasMailbox: deps.hasMailbox,
    keyIds: deps.keyIds,
  });
  const batch = createSavedLoginsImport({ saved: savedLogins, repo, secrets: deps.secrets, db: deps.db, log });
  return new Vault(savedLogins, log, new CredentialImporter(savedLogins, batch));
}
