import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Loading } from '../../components/StatusViews';
import { ApiError } from '../../lib/api';
import { useScrollIntoView } from '../../lib/use-scroll-into-view';
import { useAppStore } from '../../stores/app-store';
import type { ProfileImportRun } from '../../stores/browser-profiles.slice';
import { NEXT_STEP, verdictOf } from './profile-format';

/** The outcome of an import: per site the check's verdict and a way to the session, or the refusal and what to do. */
export function ImportResults({ run }: { run: ProfileImportRun }) {
  const openSession = useAppStore((s) => s.openSession);
  // The outcome takes the focus the disabled Import button lost (never left on the page's body).
  const ref = useScrollIntoView<HTMLDivElement>(run.status === 'running' ? null : run, { focus: true });
  if (run.status === 'running') return <Loading label="Reading the profile and checking each session…" />;
  if (run.error) {
    const next = NEXT_STEP[run.error.code];
    return (
      <div ref={ref} tabIndex={-1} className="reveal-target" data-testid="profile-import-error">
        <ApiErrorBanner
          title="The sessions were not imported"
          error={new ApiError(run.error.code, run.error.message)}
        />
        {next ? (
          <p className="next-step">
            <strong>What to do:</strong> {next}
          </p>
        ) : null}
      </div>
    );
  }
  const sessions = run.result?.sessions ?? [];
  return (
    <div ref={ref} tabIndex={-1} className="import-results reveal-target" data-testid="profile-import-result">
      <h3>Imported</h3>
      <ul className="plain-list">
        {sessions.map((s) => {
          const verdict = verdictOf(s);
          return (
            <li key={s.origin} className="import-site" data-testid="imported-site">
              <div className="import-site-head">
                <span className="break-anywhere import-origin">{s.origin}</span>
                <span className={`badge badge-${verdict.tone}`} data-testid="imported-verdict">
                  {verdict.text}
                </span>
              </div>
              <p className="muted">
                {s.cookies} {s.cookies === 1 ? 'cookie' : 'cookies'}
                {s.localStorage ? ` · ${s.localStorage} localStorage ${s.localStorage === 1 ? 'item' : 'items'}` : ''}
                {s.session_id ? '' : ' · not kept: the check found it signed out'}
              </p>
              {!s.valid && s.evidence.length ? <p className="muted">The check saw: {s.evidence.join('; ')}</p> : null}
              {s.session_id ? (
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  onClick={() => openSession(s.session_id!)}
                >
                  Open in Sessions
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
