// Settings → Backup's part of the IPC contract (spread into IPC_CONTRACT in ipc-contract.ts): backing up now,
// scheduled backups to a folder, and restoring a backup into a new folder. Every path comes from an OS dialog the
// main process shows (the page never names a path), and the passphrase goes one way: from the page to the main process.
import { z } from 'zod';

const noArgs = z.undefined();
const Passphrase = z.string().min(12, 'at least 12 characters').max(1024).describe('backup passphrase');

export const BackupMadeSchema = z.object({
  /** False when the person cancelled the save dialog. */
  saved: z.boolean(),
  file: z.string().nullable(),
  files: z.number().int(),
  bytes: z.number().int(),
  secrets: z.number().int(),
  media: z.boolean(),
});

export const BackupScheduleViewSchema = z.object({
  schedule: z
    .object({
      folder: z.string(),
      everyHours: z.number().int(),
      keep: z.number().int(),
      media: z.boolean(),
    })
    .nullable(),
  last: z
    .object({
      at: z.number(),
      file: z.string().nullable(),
      error: z.string().nullable(),
      running: z.boolean().optional(),
    })
    .nullable(),
  nextAt: z.number().nullable(),
  /** The folder picked in the dialog and not saved yet (null: none, or the schedule's own). */
  pickedFolder: z.string().nullable(),
});
export type BackupScheduleViewDto = z.infer<typeof BackupScheduleViewSchema>;

export const BackupInspectedSchema = z.object({
  /** False when the person cancelled the open dialog. */
  chosen: z.boolean(),
  name: z.string().nullable(),
  createdAt: z.number().nullable(),
  appVersion: z.string().nullable(),
  files: z.number().int().nullable(),
  bytes: z.number().int().nullable(),
  secrets: z.number().int().nullable(),
  media: z.boolean().nullable(),
});

export const BackupRestoredSchema = z.object({
  /** False when the person cancelled the folder dialog. */
  restored: z.boolean(),
  dataDir: z.string().nullable(),
  files: z.number().int(),
  secrets: z.number().int(),
});

export const BACKUP_CHANNELS = {
  /** A backup now, into the file the person picks in the save dialog. */
  'backup:create': {
    kind: 'local',
    args: z.object({ passphrase: Passphrase, media: z.boolean() }).strict(),
    result: BackupMadeSchema,
  },
  'backup:schedule': { kind: 'local', args: noArgs, result: BackupScheduleViewSchema },
  /** The folder dialog for scheduled backups; the folder is kept in the main process until the schedule is saved. */
  'backup:chooseFolder': { kind: 'local', args: noArgs, result: BackupScheduleViewSchema },
  /** Saves the schedule (the folder picked, else the schedule's); a null passphrase keeps the one kept. */
  'backup:setSchedule': {
    kind: 'local',
    args: z
      .object({
        everyHours: z.union([z.literal(24), z.literal(168)]),
        keep: z.number().int().min(1).max(100),
        media: z.boolean(),
        passphrase: Passphrase.nullable(),
      })
      .strict(),
    result: BackupScheduleViewSchema,
  },
  'backup:clearSchedule': { kind: 'local', args: noArgs, result: BackupScheduleViewSchema },
  /** The open dialog for a backup file; what its header says (its passphrase is not needed for that). */
  'backup:inspect': { kind: 'local', args: noArgs, result: BackupInspectedSchema },
  /** Restores the inspected backup into a new or empty folder the person picks in the folder dialog. */
  'backup:restore': {
    kind: 'local',
    args: z.object({ passphrase: z.string().min(1).max(1024) }).strict(),
    result: BackupRestoredSchema,
  },
  /** Quits and starts the app again on the restored folder. */
  'backup:openRestored': { kind: 'local', args: noArgs, result: z.object({ opened: z.boolean() }) },
} as const;
