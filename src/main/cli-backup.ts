// `npm run -s cli -- backup …` and `secrets …`: moving an installation to another computer with its secrets, and
// what to do when a data dir arrived without them (docs/data-and-secrets.md#backup-restore-and-moving-to-a-new-computer).
import { loadConfig } from './core/config/load-config.js';
import { createCore, type Core } from './core/create-core.js';
import { BackupDamagedError, BackupPassphraseError, minPassphraseProblem } from './core/backup/backup-crypto.js';
import { createBackup } from './core/backup/create-backup.js';
import { readBackupHeader, restoreBackup, RestoreRefusedError } from './core/backup/restore-backup.js';

export const BACKUP_USAGE = `  backup create --out FILE [--without-media]             one encrypted file with the database, the media, and
                                                         every secret (passphrase: $AGENT_STUDIO_BACKUP_PASSPHRASE
                                                         or typed, at least 12 characters)
  backup restore FILE [--data-dir DIR]                   make a data dir from a backup (DIR new or empty); its
                                                         secrets go to this computer's store
  secrets missing [--json]                               secrets this data dir stored that the store lacks
  secrets forget-missing --yes                           start over without them (new ones are made where needed)`;

export const PASSPHRASE_ENV = 'AGENT_STUDIO_BACKUP_PASSPHRASE';

type Values = Record<string, string | boolean | string[] | undefined>;

export interface BackupIo {
  out(line: string): void;
  readSecret(what: string): Promise<string>;
  usage(message: string): Error;
  /** Whether a person types at this terminal (then a new passphrase is asked twice). */
  interactive: boolean;
}

async function passphrase(io: BackupIo, confirm: boolean): Promise<string> {
  const fromEnv = process.env[PASSPHRASE_ENV];
  if (fromEnv) return fromEnv;
  const given = await io.readSecret('backup passphrase');
  if (!given) throw io.usage(`no passphrase: set ${PASSPHRASE_ENV}, or type it when asked`);
  if (confirm && io.interactive && (await io.readSecret('the same passphrase again')) !== given) {
    throw io.usage('the two passphrases differ');
  }
  return given;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `backup create` and `secrets …`: they work on the data dir's running core. */
export async function backupCommand(core: Core, action: string, rest: string[], v: Values, io: BackupIo) {
  if (action === 'backup create') {
    const outFile = v.out;
    if (typeof outFile !== 'string' || !outFile) throw io.usage('backup create needs --out FILE');
    const pass = await passphrase(io, true);
    const problem = minPassphraseProblem(pass);
    if (problem) throw io.usage(problem);
    const made = await createBackup({
      dataDir: core.config.dataDir,
      db: core.db,
      secrets: core.secretsInventory,
      out: outFile,
      passphrase: pass,
      media: !v['without-media'],
    });
    io.out(
      `backup written to ${made.file}: ${made.files} file(s), ${mb(made.bytes)}, ${made.secrets} secret(s)` +
        `${made.media ? '' : ', media left out'}. Keep the passphrase apart from the file: without it the backup ` +
        'cannot be opened.',
    );
    return;
  }
  if (action === 'secrets missing') {
    const names = await core.secretsInventory.missing();
    if (v.json) return io.out(JSON.stringify({ missing: names }));
    if (!names.length) return io.out('every secret this data dir stored is in the secret store');
    io.out(`${names.length} secret(s) this data dir stored are missing from the secret store:`);
    for (const n of names) io.out(`  ${n}`);
    return;
  }
  if (action === 'secrets forget-missing') {
    if (!v.yes) {
      throw io.usage(
        'secrets forget-missing needs --yes: new secrets are then made where needed (a new webhook signing secret ' +
          'receivers must be given; cached sessions sealed with the old key are dropped)',
      );
    }
    const { forgotten, vaultSetAside } = await core.forgetMissingSecrets();
    io.out(
      forgotten.length
        ? `forgot ${forgotten.length} missing secret(s): ${forgotten.join(', ')}`
        : 'no secret was missing',
    );
    if (vaultSetAside) {
      io.out(
        `the saved logins' secrets could not be opened without their key: their file is set aside as ${vaultSetAside}; ` +
          'enter the secrets of each saved login again',
      );
    }
    return;
  }
  throw io.usage(`unknown command: ${action}`);
}

/**
 * `backup restore FILE`: runs before any core is opened on the data dir (opening one would make it an installation).
 * Exit status 1 with a message on a refusal, a wrong passphrase, or a damaged file; the data dir is left as it was.
 */
export async function restoreCommand(rest: string[], v: Values, io: BackupIo): Promise<void> {
  const file = rest[0];
  if (!file || rest.length > 1) throw io.usage('backup restore takes one FILE');
  const dataDir = loadConfig({ dataDir: v['data-dir'] as string | undefined }).dataDir;
  const { header } = readBackupHeader(file);
  io.out(
    `backup of ${new Date(header.created_at).toISOString()} by Agent Studio ${header.app_version}: ` +
      `${header.contents.files} file(s), ${mb(header.contents.bytes)}, ${header.contents.secrets} secret(s)` +
      `${header.contents.media ? '' : ', without media'}`,
  );
  const pass = await passphrase(io, false);
  const done = await restoreBackup({
    file,
    dataDir,
    passphrase: pass,
    openTarget: async (staging) => createCore(loadConfig({ dataDir: staging })),
  });
  const where = done.secretsBackend === 'keychain' ? "this computer's OS keychain" : 'the encrypted secrets file';
  io.out(`restored into ${dataDir}: ${done.files} file(s), ${done.secrets} secret(s) in ${where}.`);
  if (done.stillMissing.length) {
    io.out(
      `${done.stillMissing.length} secret(s) were already missing when the backup was made: ` +
        `${done.stillMissing.join(', ')} (see: secrets missing)`,
    );
  }
}

/** The errors of a restore that are the file's or the person's, not a bug: said in one line. */
export function isRestoreProblem(err: unknown): boolean {
  return (
    err instanceof RestoreRefusedError || err instanceof BackupPassphraseError || err instanceof BackupDamagedError
  );
}
