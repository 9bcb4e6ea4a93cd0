import { useEffect, useState, type FormEvent } from 'react';
import type { BackupScheduleViewDto } from '../../../shared/ipc-backup-channels.js';
import { ErrorBanner } from '../../components/StatusViews';
import { Field } from '../../components/Field';
import { errorMessage, invoke } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { ActionOutcome, type Outcome } from '../../components/ActionOutcome';
import { PassphraseFields, passphraseErrors } from './BackupParts';

/** Scheduled backups to a folder the person picks, sealed with a passphrase the app keeps in the secret store. */
export function BackupSchedule() {
  const [view, setView] = useState<BackupScheduleViewDto | null>(null);
  const [loadProblem, setLoadProblem] = useState<string | null>(null);
  const [everyHours, setEveryHours] = useState<24 | 168>(24);
  const [keep, setKeep] = useState('7');
  const [media, setMedia] = useState(true);
  const [passphrase, setPassphrase] = useState('');
  const [again, setAgain] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const show = (v: BackupScheduleViewDto) => {
    setView(v);
    if (v.schedule) {
      setEveryHours(v.schedule.everyHours === 168 ? 168 : 24);
      setKeep(String(v.schedule.keep));
      setMedia(v.schedule.media);
    }
  };

  useEffect(() => {
    invoke('backup:schedule').then(show, (err: unknown) => setLoadProblem(errorMessage(err)));
  }, []);

  const scheduled = view?.schedule ?? null;
  const folder = view?.pickedFolder ?? scheduled?.folder ?? null;
  // a passphrase is kept once a schedule is saved: leaving both fields empty keeps it
  const newPassphrase = passphrase !== '' || again !== '' || !scheduled;
  const errors = newPassphrase ? passphraseErrors(passphrase, again) : { passphrase: null, again: null };
  const keepN = Number(keep);
  const keepError = Number.isInteger(keepN) && keepN >= 1 && keepN <= 100 ? null : 'A whole number from 1 to 100.';

  const act = async (fn: () => Promise<BackupScheduleViewDto>, done: (v: BackupScheduleViewDto) => string) => {
    setBusy(true);
    setOutcome(null);
    try {
      const v = await fn();
      show(v);
      setOutcome({ text: done(v), bad: false });
    } catch (err) {
      setOutcome({ text: errorMessage(err), bad: true });
    } finally {
      setBusy(false);
    }
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!folder || errors.passphrase || errors.again || keepError) return;
    await act(
      () =>
        invoke('backup:setSchedule', { everyHours, keep: keepN, media, passphrase: newPassphrase ? passphrase : null }),
      (v) =>
        v.last?.error
          ? `Schedule saved, but the first backup failed: ${v.last.error}`
          : `Schedule saved. ${v.last?.file ? `The first backup is in ${v.last.file}.` : ''}`,
    );
    setPassphrase('');
    setAgain('');
    setTried(false);
  };

  return (
    <form onSubmit={save} noValidate aria-labelledby="backup-schedule-title" className="settings-form">
      <h3 id="backup-schedule-title">Scheduled backups</h3>
      {loadProblem ? <ErrorBanner title="Could not read the schedule" message={loadProblem} /> : null}
      <p className="muted" data-testid="backup-schedule-state">
        {scheduled
          ? `On: every ${scheduled.everyHours === 168 ? 'week' : 'day'} into ${scheduled.folder}, the newest ${scheduled.keep} kept. ` +
            (view?.last
              ? view.last.running
                ? `A backup started ${formatDate(view.last.at)}. `
                : view.last.error
                  ? `The last one (${formatDate(view.last.at)}) failed: ${view.last.error}. `
                  : `Last: ${formatDate(view.last.at)}. `
              : '') +
            (view?.nextAt ? `Next: ${formatDate(view.nextAt)}.` : '')
          : 'Off.'}
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          onClick={() =>
            void act(
              () => invoke('backup:chooseFolder'),
              (v) => (v.pickedFolder ? `Folder: ${v.pickedFolder}` : 'No folder chosen.'),
            )
          }
        >
          Choose folder…
        </button>
        <span className="mono" data-testid="backup-folder">
          {folder ?? 'No folder chosen'}
        </span>
      </div>
      {tried && !folder ? <p className="field-error">Choose a folder for the backups.</p> : null}
      <div className="form-grid">
        <Field label="How often">
          <select value={everyHours} onChange={(e) => setEveryHours(Number(e.target.value) === 168 ? 168 : 24)}>
            <option value={24}>Every day</option>
            <option value={168}>Every week</option>
          </select>
        </Field>
        <Field
          label="Backups to keep"
          error={tried ? keepError : null}
          hint="Older ones this schedule made are removed."
        >
          <input inputMode="numeric" value={keep} onChange={(e) => setKeep(e.target.value)} />
        </Field>
      </div>
      <PassphraseFields
        passphrase={passphrase}
        again={again}
        onPassphrase={setPassphrase}
        onAgain={setAgain}
        errors={tried ? errors : { passphrase: null, again: null }}
        required={!scheduled}
        hint={
          scheduled
            ? 'Kept in the secret store; leave empty to keep it.'
            : 'Kept in the secret store, so backups need no one.'
        }
      />
      <div className="field checkbox-field">
        <label className="checkbox">
          <input type="checkbox" checked={media} onChange={(e) => setMedia(e.target.checked)} />
          Include the media
        </label>
      </div>
      <ActionOutcome outcome={outcome} errorTitle="The schedule was not saved" testId="backup-schedule-outcome" />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : scheduled ? 'Save schedule' : 'Turn on'}
        </button>
        {scheduled ? (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy}
            onClick={() =>
              void act(
                () => invoke('backup:clearSchedule'),
                () => 'Scheduled backups are off; the files made stay.',
              )
            }
          >
            Turn off
          </button>
        ) : null}
      </div>
    </form>
  );
}
