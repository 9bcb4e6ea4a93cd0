import { useCallback, useEffect, useState } from 'react';
import type { CrashReports } from '../../../shared/ipc-crash-reports-channels.js';
import { ActionOutcome, type Outcome } from '../../components/ActionOutcome';
import { ErrorBanner, Loading } from '../../components/StatusViews';
import { errorMessage, invoke } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { SettingsSection } from './SettingsSection';

function countText(reports: CrashReports): string {
  if (reports.count === 0) return 'No crash reports: Agent Studio has not crashed here.';
  const what = reports.count === 1 ? '1 crash report' : `${reports.count} crash reports`;
  return `${what}, the newest from ${formatDate(reports.newestAt)}.`;
}

/**
 * Settings → Crash reports: a crash leaves a dump in the data folder and nowhere else. Says where, what a dump may
 * hold (the app holds a vault), how many there are, and opens the folder (the main process knows which one).
 */
export function CrashReportsSection() {
  const [reports, setReports] = useState<CrashReports | null>(null);
  const [loadProblem, setLoadProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const load = useCallback(() => {
    setLoadProblem(null);
    invoke('crashes:get').then(setReports, (err: unknown) => setLoadProblem(errorMessage(err)));
  }, []);
  useEffect(load, [load]);

  const open = async () => {
    try {
      await invoke('crashes:openFolder');
      setOutcome({ text: 'Opened the crash reports folder in your file manager.', bad: false });
    } catch (err) {
      setOutcome({ text: errorMessage(err), bad: true });
    }
  };

  return (
    <SettingsSection
      id="crashes"
      title="Crash reports"
      description="When Agent Studio crashes it keeps a report on this computer. Nothing is sent anywhere."
    >
      {loadProblem ? (
        <ErrorBanner title="Could not read the crash reports" message={loadProblem} onRetry={load} />
      ) : null}
      {reports ? (
        <div className="settings-form">
          <p className="settings-path" data-testid="crash-reports-where">
            Kept in <span className="mono">{reports.folder}</span>, in your data folder. No report is uploaded or sent:
            if you want help with a crash, you choose what to share.
          </p>
          <p className="field-hint" data-testid="crash-reports-contents">
            A report (a .dmp file) is a copy of the memory of the part of the app that crashed. It may include a
            password, a code or a cookie that was in use at that moment, so treat it like your saved logins: share it
            only with someone you trust, and delete it when it is no longer needed.
          </p>
          <p className="muted" data-testid="crash-reports-count">
            {countText(reports)}
          </p>
          <div className="form-actions">
            <button type="button" className="btn btn-secondary" onClick={() => void open()}>
              Open the crash reports folder
            </button>
          </div>
          <ActionOutcome outcome={outcome} errorTitle="Not opened" testId="crash-reports-outcome" />
        </div>
      ) : loadProblem ? null : (
        <Loading label="Reading the crash reports…" />
      )}
    </SettingsSection>
  );
}
