import { useEffect } from 'react';
import type { SessionSummary } from '../../../shared/ipc-contract.js';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable, type Column } from '../../components/DataTable';
import { RefreshButton, type ListLoad } from '../../components/ListFrame';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorBanner } from '../../components/StatusViews';
import { errorMessage } from '../../lib/api';
import { hostOf } from '../../lib/format';
import { useItemAction } from '../../lib/use-item-action';
import { useAppStore } from '../../stores/app-store';
import { LoginTestForm } from './LoginTestForm';
import { SessionDetail } from './SessionDetail';
import { SESSION_CREATED, SESSION_EXPIRES, SESSION_SITE, SESSION_USERNAME } from './session-columns';

const SESSION_COLUMNS: Column<SessionSummary>[] = [
  SESSION_SITE,
  SESSION_USERNAME,
  { header: 'Method', cell: (s) => <span className="badge badge-neutral">{s.login_method}</span> },
  SESSION_CREATED,
  SESSION_EXPIRES,
  {
    header: 'Cookies',
    className: 'num',
    cellAttributes: (s) => ({ title: s.cookie_names.join(', ') }),
    cell: (s) => s.cookie_count,
  },
];

export function SessionsScreen() {
  const sessions = useAppStore((s) => s.sessions);
  const loadSessions = useAppStore((s) => s.loadSessions);
  const deleteSession = useAppStore((s) => s.deleteSession);
  const removal = useItemAction(deleteSession);
  const selectedId = useAppStore((s) => s.selectedSessionId);
  const select = useAppStore((s) => s.selectSession);
  const selected = sessions.data.find((x) => x.id === selectedId) ?? null;

  useEffect(() => {
    void loadSessions();
  }, [loadSessions]);

  const sessionsLoad: ListLoad = { state: sessions, noun: 'sessions', onRetry: () => void loadSessions() };
  return (
    <div className="page">
      <PageHeader
        title="Sessions"
        description="Live browser sessions cached by the login service, per site and user. Agents get them from POST /api/login."
        actions={<RefreshButton load={sessionsLoad} />}
      />
      {selected ? <SessionDetail session={selected} onClose={() => select(null)} /> : null}
      <section className="card" aria-labelledby="cached-sessions-title">
        <div className="card-header">
          <h2 id="cached-sessions-title">Cached sessions</h2>
          {sessions.status === 'ready' ? <span className="muted">{sessions.data.length} cached</span> : null}
        </div>
        {removal.error ? (
          <ErrorBanner title="Could not delete the session" message={errorMessage(removal.error)} />
        ) : null}
        <DataTable
          label="Cached sessions"
          rows={sessions.data}
          rowKey={(s) => s.id}
          rowTestId="session-row"
          isSelected={(s) => s.id === selectedId}
          columns={SESSION_COLUMNS}
          load={sessionsLoad}
          empty={
            <EmptyState title="No cached sessions yet" testId="sessions-empty">
              Run a login below, or let an agent call <code>POST /api/login</code>: successful logins are cached here.
            </EmptyState>
          }
          actions={(s) => (
            <>
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
                busy={removal.busyId === s.id}
                onConfirm={() => removal.run(s.id)}
              />
            </>
          )}
        />
      </section>
      <LoginTestForm onDone={() => void loadSessions()} />
    </div>
  );
}
