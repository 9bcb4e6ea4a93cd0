import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { formatDate, formatRelative, hostOf } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';
import { LoginSteps } from './LoginSteps';
import { SessionExports } from './SessionExports';

const STATUS_TONE: Record<SessionSummary['status'], string> = {
  unchecked: 'badge-neutral',
  valid: 'badge-success',
  invalid: 'badge-danger',
  renewed: 'badge-accent',
};

/** One cached session: what is known of it, a re-test on its site, the last login made here, and exports. */
export function SessionDetail({ session: s, onClose }: { session: SessionSummary; onClose: () => void }) {
  const validate = useAppStore((st) => st.validateSession);
  const validation = useAppStore((st) => st.validations[s.id]);
  const history = useAppStore((st) => st.loginHistory[s.id]);
  const [testing, setTesting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The saved login that renews it, by its label (the list is read once when a session names one).
  const savedLogins = useAppStore((st) => st.savedLogins);
  const loadSavedLogins = useAppStore((st) => st.loadSavedLogins);
  const openSavedLogin = useAppStore((st) => st.openSavedLogin);
  const savedLogin = s.credential_id ? savedLogins.data.find((x) => x.id === s.credential_id) : undefined;
  useEffect(() => {
    if (s.credential_id && savedLogins.status === 'idle') void loadSavedLogins();
  }, [s.credential_id, savedLogins.status, loadSavedLogins]);

  const retest = async () => {
    setTesting(true);
    setError(null);
    try {
      await validate(s.id);
    } catch (err) {
      setError(err);
    } finally {
      setTesting(false);
    }
  };

  const request = {
    domain: history?.request.domain ?? s.origin,
    username: s.username,
    loginMethod: s.login_method,
  };
  return (
    <section className="card session-detail" aria-label={`Session ${hostOf(s.origin)}`} data-testid="session-detail">
      <div className="card-header">
        <h2>
          {hostOf(s.origin)} <span className="muted">· {s.username || 'no username'}</span>
        </h2>
        <div className="detail-actions">
          <button type="button" className="btn btn-primary btn-small" onClick={() => void retest()} disabled={testing}>
            {testing ? 'Testing…' : 'Re-test session'}
          </button>
          <button type="button" className="btn btn-secondary btn-small" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <dl className="stats stats-grid">
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`badge ${STATUS_TONE[s.status]}`} data-testid="session-status">
              {s.status}
            </span>
          </dd>
        </div>
        <div>
          <dt>Method</dt>
          <dd>{s.login_method}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDate(s.created_at)}</dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{s.expires_at ? formatRelative(s.expires_at) : 'No expiry'}</dd>
        </div>
        <div>
          <dt>Last checked</dt>
          <dd>{s.last_checked_at ? formatRelative(s.last_checked_at) : 'Never'}</dd>
        </div>
        <div>
          <dt>Renewable</dt>
          <dd>{s.stored_credentials ? 'Yes, with a saved login' : 'No'}</dd>
        </div>
        {s.credential_id ? (
          <div>
            <dt>Saved login</dt>
            <dd>
              <button
                type="button"
                className="saved-login-link"
                data-testid="session-saved-login"
                aria-label={`Open saved login ${savedLogin?.label ?? s.credential_id}`}
                onClick={() => openSavedLogin(s.credential_id!)}
              >
                {savedLogin?.label ?? s.credential_id}
              </button>
            </dd>
          </div>
        ) : null}
      </dl>
      <p className="cell-sub">
        {s.cookie_count} cookie{s.cookie_count === 1 ? '' : 's'}
        {s.origin_count ? ` and storage of ${s.origin_count} origin${s.origin_count === 1 ? '' : 's'}` : ''}:{' '}
        <span className="mono">{s.cookie_names.join(', ') || '—'}</span>
      </p>
      {error ? <ApiErrorBanner title="The re-test did not run" error={error} /> : null}
      {validation ? (
        <div
          className={`banner ${validation.valid ? 'banner-success' : 'banner-warning'}`}
          role="status"
          data-testid="session-validation"
        >
          <div>
            <strong>{validation.valid ? 'Still logged in' : 'No longer logged in'}</strong>
            <span className="muted">
              {' '}
              · checked {validation.checked_url} {formatRelative(validation.checked_at)}
            </span>
            {validation.dropped ? <p>The dead session was removed from the cache.</p> : null}
            <ul className="issue-list">
              {validation.evidence.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
      <h3>Last login from this window</h3>
      {history ? (
        <>
          <p className="cell-sub">
            {formatDate(history.startedAt)} · took {((history.durationMs ?? 0) / 1000).toFixed(1)} s ·{' '}
            {history.result?.from_cache ? 'served from the cache' : 'fresh browser login'}
          </p>
          <LoginSteps steps={history.steps} />
        </>
      ) : (
        <p className="muted">
          Steps are kept for logins run from this window since it opened; this session was made by an agent or earlier.
        </p>
      )}
      <SessionExports
        request={request}
        state={history?.result ?? null}
        label={`Use session ${hostOf(s.origin)} in an agent`}
      />
    </section>
  );
}
