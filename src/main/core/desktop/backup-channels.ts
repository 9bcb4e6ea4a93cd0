// Settings → Backup's main-only channels: a backup now (the save dialog picks the file), scheduled backups to a folder
// (the folder dialog picks it), and a restore into a new or empty folder. Plain Node: the Electron layer supplies the
// dialogs and the relaunch. A path never comes from the page: each is one the person picked in a dialog, kept here.
import path from 'node:path';
import type { IpcResult } from '../../../shared/errors.js';
import { BackupDamagedError, BackupPassphraseError } from '../backup/backup-crypto.js';
import { BackupScheduleError, type BackupScheduleView } from '../backup/backup-schedule.js';
import { createBackup } from '../backup/create-backup.js';
import { readBackupHeader, restoreBackup, RestoreRefusedError } from '../backup/restore-backup.js';
import { loadConfig } from '../config/load-config.js';
import { createCore } from '../create-core.js';
import type { DesktopHost } from './settings-channels.js';
import { fail } from './http-channel.js';
import type { LocalHandlers } from './ipc-dispatcher.js';

export type BackupChannelName =
  | 'backup:create'
  | 'backup:schedule'
  | 'backup:chooseFolder'
  | 'backup:setSchedule'
  | 'backup:clearSchedule'
  | 'backup:inspect'
  | 'backup:restore'
  | 'backup:openRestored';

/** What only the OS (Electron) does for these channels; stand-ins in the tests. */
export interface BackupOs {
  chooseSavePath(opts: { title: string; defaultName: string; extensions: string[] }): Promise<string | null>;
  chooseOpenPath(opts: { title: string; extensions: string[] }): Promise<string | null>;
  chooseFolder(opts: { title: string }): Promise<string | null>;
  /** Quits and starts the app again with this data folder. */
  relaunchWith(dataDir: string): Promise<void>;
}

/** A refusal the person can act on (wrong passphrase, damaged file, a folder not empty): a value, not a crash. */
function refusal(err: unknown): IpcResult<never> {
  if (err instanceof BackupPassphraseError) return fail('backup_passphrase', err.message);
  if (err instanceof BackupDamagedError) return fail('backup_damaged', err.message);
  if (err instanceof RestoreRefusedError || err instanceof BackupScheduleError)
    return fail('validation_error', err.message);
  return fail('backup_failed', (err as Error).message);
}

const today = () => new Date().toISOString().slice(0, 10);

export function backupChannels(deps: { host: DesktopHost; os: BackupOs }): Pick<LocalHandlers, BackupChannelName> {
  const core = () => deps.host.current().core;
  let pickedFolder: string | null = null;
  let inspected: string | null = null;
  let restored: string | null = null;

  const view = (v: BackupScheduleView = core().backups.view()) => ({
    ok: true as const,
    value: { ...v, pickedFolder },
  });

  return {
    'backup:create': async ({ passphrase, media }) => {
      const file = await deps.os.chooseSavePath({
        title: 'Save the backup',
        defaultName: `agent-studio-backup-${today()}.asb`,
        extensions: ['asb'],
      });
      if (!file) return { ok: true, value: { saved: false, file: null, files: 0, bytes: 0, secrets: 0, media } };
      try {
        const c = core();
        const made = await createBackup({
          dataDir: c.config.dataDir,
          db: c.db,
          secrets: c.secretsInventory,
          out: file,
          passphrase,
          media,
        });
        c.log.info({ files: made.files, secrets: made.secrets }, 'desktop: backup made by the person');
        return { ok: true, value: { saved: true, ...made } };
      } catch (err) {
        return refusal(err);
      }
    },
    'backup:schedule': async () => view(),
    'backup:chooseFolder': async () => {
      const folder = await deps.os.chooseFolder({ title: 'Folder for scheduled backups' });
      if (folder) pickedFolder = folder;
      return view();
    },
    'backup:setSchedule': async ({ everyHours, keep, media, passphrase }) => {
      const folder = pickedFolder ?? core().backups.view().schedule?.folder ?? null;
      if (!folder) return fail('validation_error', 'choose a folder for the backups first');
      try {
        const saved = await core().backups.set({ folder, everyHours, keep, media }, passphrase);
        pickedFolder = null;
        return view(saved);
      } catch (err) {
        return refusal(err);
      }
    },
    'backup:clearSchedule': async () => {
      pickedFolder = null;
      return view(await core().backups.clear());
    },
    'backup:inspect': async () => {
      const file = await deps.os.chooseOpenPath({ title: 'Choose a backup to restore', extensions: ['asb'] });
      const none = {
        chosen: false,
        name: null,
        createdAt: null,
        appVersion: null,
        files: null,
        bytes: null,
        secrets: null,
        media: null,
      };
      if (!file) return { ok: true, value: none };
      try {
        const { header } = readBackupHeader(file);
        inspected = file;
        return {
          ok: true,
          value: {
            chosen: true,
            name: path.basename(file),
            createdAt: header.created_at,
            appVersion: header.app_version,
            ...header.contents,
          },
        };
      } catch (err) {
        inspected = null;
        return refusal(err);
      }
    },
    'backup:restore': async ({ passphrase }) => {
      if (!inspected) return fail('validation_error', 'choose a backup file first');
      const dataDir = await deps.os.chooseFolder({ title: 'A new, empty folder for the restored data' });
      if (!dataDir) return { ok: true, value: { restored: false, dataDir: null, files: 0, secrets: 0 } };
      try {
        const done = await restoreBackup({
          file: inspected,
          dataDir,
          passphrase,
          openTarget: async (staging) => {
            const config = loadConfig({ dataDir: staging });
            // The secrets go where this app keeps its own (the person's choice in the desktop, not only the env's).
            if (!process.env.AGENT_STUDIO_SECRETS_BACKEND) config.secrets.backend = core().secrets.backend;
            return createCore(config);
          },
        });
        restored = dataDir;
        core().log.info({ files: done.files, secrets: done.secrets }, 'desktop: backup restored by the person');
        return { ok: true, value: { restored: true, dataDir, files: done.files, secrets: done.secrets } };
      } catch (err) {
        return refusal(err);
      }
    },
    'backup:openRestored': async () => {
      if (!restored) return fail('validation_error', 'nothing was restored in this window');
      await deps.os.relaunchWith(restored);
      return { ok: true, value: { opened: true } };
    },
  };
}
