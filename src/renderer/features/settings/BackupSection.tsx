import { useState, type FormEvent } from 'react';
import { errorMessage, invoke } from '../../lib/api';
import { formatBytes } from '../../lib/format';
import { BackupRestore } from './BackupRestore';
import { BackupSchedule } from './BackupSchedule';
import { ActionOutcome, type Outcome } from '../../components/ActionOutcome';
import { PassphraseFields, passphraseErrors } from './BackupParts';
import { SettingsSection } from './SettingsSection';

/**
 * Settings → Backup: one encrypted file with the database, the media and every secret, to move to a new computer or
 * to keep; made now, on a schedule to a folder, or restored into a new folder.
 */
export function BackupSection() {
  return (
    <SettingsSection
      id="backup"
      title="Backup"
      description="One encrypted file with the database, the media and every secret (saved logins, mailbox passwords, the webhook secret). A copy of the data folder alone lacks the secrets, which live in this computer's keychain (or its encrypted secrets file and key)."
    >
      <BackupNow />
      <BackupSchedule />
      <BackupRestore />
    </SettingsSection>
  );
}

function BackupNow() {
  const [passphrase, setPassphrase] = useState('');
  const [again, setAgain] = useState('');
  const [media, setMedia] = useState(true);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const errors = passphraseErrors(passphrase, again);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    setOutcome(null);
    if (errors.passphrase || errors.again) return;
    setBusy(true);
    try {
      const made = await invoke('backup:create', { passphrase, media });
      if (!made.saved) return;
      setOutcome({
        text:
          `Backup saved to ${made.file}: ${made.files} file${made.files === 1 ? '' : 's'}, ${formatBytes(made.bytes)}, ` +
          `${made.secrets} secret${made.secrets === 1 ? '' : 's'}${made.media ? '' : ', media left out'}. ` +
          'Keep the passphrase apart from the file: without it the backup cannot be opened.',
        bad: false,
      });
      setPassphrase('');
      setAgain('');
      setTried(false);
    } catch (err) {
      setOutcome({ text: errorMessage(err), bad: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="backup-now-title" className="settings-form">
      <h3 id="backup-now-title">Back up now</h3>
      <PassphraseFields
        passphrase={passphrase}
        again={again}
        onPassphrase={setPassphrase}
        onAgain={setAgain}
        errors={tried ? errors : { passphrase: null, again: null }}
        required
        hint="At least 12 characters."
      />
      <div className="field checkbox-field">
        <label className="checkbox">
          <input type="checkbox" checked={media} onChange={(e) => setMedia(e.target.checked)} />
          Include the media (uploads and generated videos; an S3 bucket is never copied)
        </label>
      </div>
      <ActionOutcome outcome={outcome} errorTitle="No backup was made" testId="backup-now-outcome" />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Backing up…' : 'Back up…'}
        </button>
        <span className="muted">You choose where the file goes.</span>
      </div>
    </form>
  );
}
