import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorBanner, Notice } from '../../components/StatusViews';
import { Field } from '../../components/Field';
import { errorMessage, invoke } from '../../lib/api';
import { formatBytes } from '../../lib/format';
import { BackupRestore } from './BackupRestore';
import { BackupSchedule } from './BackupSchedule';
import { passphraseErrors } from './backup-passphrase';
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
  const [outcome, setOutcome] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const said = useRef<HTMLDivElement>(null);
  const errors = passphraseErrors(passphrase, again);

  useEffect(() => {
    if (outcome || problem) said.current?.focus();
  }, [outcome, problem]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    setOutcome(null);
    setProblem(null);
    if (errors.passphrase || errors.again) return;
    setBusy(true);
    try {
      const made = await invoke('backup:create', { passphrase, media });
      if (!made.saved) return;
      setOutcome(
        `Backup saved to ${made.file}: ${made.files} file${made.files === 1 ? '' : 's'}, ${formatBytes(made.bytes)}, ` +
          `${made.secrets} secret${made.secrets === 1 ? '' : 's'}${made.media ? '' : ', media left out'}. ` +
          'Keep the passphrase apart from the file: without it the backup cannot be opened.',
      );
      setPassphrase('');
      setAgain('');
      setTried(false);
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="backup-now-title" className="settings-form">
      <h3 id="backup-now-title">Back up now</h3>
      <div className="form-grid">
        <Field label="Passphrase" required error={tried ? errors.passphrase : null} hint="At least 12 characters.">
          <input
            type="password"
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
            autoComplete="new-password"
          />
        </Field>
        <Field label="Passphrase again" required error={tried ? errors.again : null}>
          <input type="password" value={again} onChange={(e) => setAgain(e.target.value)} autoComplete="new-password" />
        </Field>
      </div>
      <div className="field checkbox-field">
        <label className="checkbox">
          <input type="checkbox" checked={media} onChange={(e) => setMedia(e.target.checked)} />
          Include the media (uploads and generated videos; an S3 bucket is never copied)
        </label>
      </div>
      <div ref={said} tabIndex={-1} className="outcome" data-testid="backup-now-outcome">
        {outcome ? <Notice tone="success">{outcome}</Notice> : null}
        {problem ? <ErrorBanner title="No backup was made" message={problem} /> : null}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Backing up…' : 'Back up…'}
        </button>
        <span className="muted">You choose where the file goes.</span>
      </div>
    </form>
  );
}
