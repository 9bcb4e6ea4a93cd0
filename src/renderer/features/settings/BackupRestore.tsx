import { useState, type FormEvent } from 'react';
import { Field } from '../../components/Field';
import { errorMessage, invoke } from '../../lib/api';
import { formatBytes, formatDate } from '../../lib/format';
import { ActionOutcome, type Outcome } from '../../components/ActionOutcome';

interface Inspected {
  name: string | null;
  createdAt: number | null;
  appVersion: string | null;
  files: number | null;
  bytes: number | null;
  secrets: number | null;
  media: boolean | null;
}

/**
 * A backup restored into a new, empty folder (this window's data folder is never overwritten), then opened there: the
 * app starts again on it.
 */
export function BackupRestore() {
  const [inspected, setInspected] = useState<Inspected | null>(null);
  const [passphrase, setPassphrase] = useState('');
  const [busy, setBusy] = useState(false);
  const [restoredInto, setRestoredInto] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setOutcome(null);
    try {
      await fn();
    } catch (err) {
      setOutcome({ text: errorMessage(err), bad: true });
    } finally {
      setBusy(false);
    }
  };

  const choose = () =>
    run(async () => {
      const found = await invoke('backup:inspect');
      if (!found.chosen) return;
      setInspected(found);
      setRestoredInto(null);
    });

  const restore = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const done = await invoke('backup:restore', { passphrase });
      if (!done.restored) return;
      setPassphrase('');
      setRestoredInto(done.dataDir);
      setOutcome({
        text: `Restored into ${done.dataDir}: ${done.files} file${done.files === 1 ? '' : 's'}, ${done.secrets} secret${done.secrets === 1 ? '' : 's'} in this computer's secret store. Open it to use it; this data folder stays as it is.`,
        bad: false,
      });
    });
  };

  return (
    <form onSubmit={restore} noValidate aria-labelledby="backup-restore-title" className="settings-form">
      <h3 id="backup-restore-title">Restore</h3>
      <p className="muted">
        A backup goes into a new, empty folder of its own; this window&apos;s data folder is never overwritten.
      </p>
      <div className="form-actions">
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void choose()}>
          Choose a backup…
        </button>
      </div>
      {inspected ? (
        <>
          <p data-testid="backup-inspected">
            <span className="mono">{inspected.name}</span>: made {formatDate(inspected.createdAt)} by Agent Studio{' '}
            {inspected.appVersion}; {inspected.files} files, {formatBytes(inspected.bytes ?? 0)}, {inspected.secrets}{' '}
            secrets{inspected.media ? '' : ', without media'}.
          </p>
          <Field label="Its passphrase" required>
            <input
              type="password"
              value={passphrase}
              onChange={(e) => setPassphrase(e.target.value)}
              autoComplete="off"
            />
          </Field>
        </>
      ) : null}
      <ActionOutcome outcome={outcome} errorTitle="Not restored" testId="backup-restore-outcome" />
      <div className="form-actions">
        {inspected && !restoredInto ? (
          <button type="submit" className="btn btn-primary" disabled={busy || passphrase === ''}>
            {busy ? 'Restoring…' : 'Restore into a new folder…'}
          </button>
        ) : null}
        {restoredInto ? (
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => void run(async () => void (await invoke('backup:openRestored')))}
          >
            Open the restored data
          </button>
        ) : null}
      </div>
    </form>
  );
}
