import { useEffect, useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorBanner, ListStatus } from '../../components/StatusViews';
import { errorMessage } from '../../lib/api';
import { formatDate, formatRelative, hostOf } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';
import { LoginTestForm } from './LoginTestForm';
import { SessionDetail } from './SessionDetail';

export function SessionsScreen() {
  const sessions = useAppStore((s) => s.sessions);
  const loadSessions = useAppStore((s) => s.loadSessions);
  const deleteSession = useAppStore((s) => s.deleteSession);
  const [rowError, setRowError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const selectedId = useAppStore((s) => s.selectedSessionId);
  const select = useAppStore((s) => s.selectSession);
  const selected = sessions.data.find((x) => x.id === selectedId) ?? null;

  useEffect(() => {
    void loadSessions();
  }, [loadSessions]);

  const remove = async (id: string) => {
    setDeleting(id);
    setRowError(null);
    try {
      await deleteSession(id);
    } catch (err) {
      setRowError(errorMessage(err));
    } finally {
      setDeleting(null);
    }
  };

  return (
    <div className="page">
      <PageHeader
        title="Sessions"
        description="Live browser sessions cached by the login service, per site and user. Agents get them from POST /api/login."
        actions={
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void loadSessions()}
            disabled={sessions.status === 'loading'}
          >
            Refresh
          </button>
        }
      />
      {selected ? <SessionDetail session={selected} onClose={() => select(null)} /> : null}
      <section className="card" aria-labelledby="cached-sessions-title">
        <div className="card-header">
          <h2 id="cached-sessions-title">Cached sessions</h2>
          {sessions.status === 'ready' ? <span className="muted">{sessions.data.length} cached</span> : null}
        </div>
        {rowError ? <ErrorBanner title="Could not delete the session" message={rowError} /> : null}
        <ListStatus
          list={sessions}
          noun="sessions"
          onRetry={() => void loadSessions()}
          empty={
            <EmptyState title="No cached sessions yet" testId="sessions-empty">
              Run a login below, or let an agent call <code>POST /api/login</code>: successful logins are cached here.
            </EmptyState>
          }
        />
        {sessions.data.length > 0 ? (
          <div className="table-wrap">
            <table className="table" aria-label="Cached sessions">
              <thead>
                <tr>
                  <th scope="col">Site</th>
                  <th scope="col">Username</th>
                  <th scope="col">Method</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col" className="num">
                    Cookies
                  </th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {sessions.data.map((s) => (
                  <tr key={s.id} data-testid="session-row" className={selectedId === s.id ? 'row-selected' : undefined}>
                    <td>
                      <div className="cell-title">{hostOf(s.origin)}</div>
                      <div className="cell-sub">{s.origin}</div>
                    </td>
                    <td>{s.username || <span className="muted">—</span>}</td>
                    <td>
                      <span className="badge badge-neutral">{s.login_method}</span>
                    </td>
                    <td>{formatDate(s.created_at)}</td>
                    <td title={formatDate(s.expires_at)}>
                      {s.expires_at ? formatRelative(s.expires_at) : 'No expiry'}
                    </td>
                    <td className="num" title={s.cookie_names.join(', ')}>
                      {s.cookie_count}
                    </td>
                    <td className="actions">
                      <button
                        type="button"
                        className="btn btn-secondary btn-small"
                        aria-label={`Open session ${hostOf(s.origin)} ${s.username}`}
                        aria-pressed={selectedId === s.id}
                        onClick={() => select(selectedId === s.id ? null : s.id)}
                      >
                        Open
                      </button>
                      <ConfirmButton
                        label="Delete"
                        ariaLabel={`Delete session ${hostOf(s.origin)} ${s.username}`}
                        busy={deleting === s.id}
                        onConfirm={() => remove(s.id)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <LoginTestForm onDone={() => void loadSessions()} />
    </div>
  );
}
