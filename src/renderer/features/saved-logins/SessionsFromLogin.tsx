import { useEffect } from 'react';
import type { SessionSummary } from '../../../shared/ipc-contract.js';
import { DataTable, type Column } from '../../components/DataTable';
import { type ListLoad } from '../../components/ListFrame';
import { EmptyState } from '../../components/StatusViews';
import { hostOf } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';
import { stacked } from './stacked-columns';
import { SESSION_CREATED, SESSION_EXPIRES, SESSION_SITE, SESSION_USERNAME } from '../sessions/session-columns';

const COLUMNS: Column<SessionSummary>[] = stacked<SessionSummary>([
  SESSION_SITE,
  SESSION_USERNAME,
  { header: 'Status', cell: (s) => <span className="badge badge-neutral">{s.status}</span> },
  SESSION_CREATED,
  SESSION_EXPIRES,
]);

/** The cached sessions this saved login renews (sessions:list filtered by credential_id). */
export function SessionsFromLogin({ id }: { id: string }) {
  const sessions = useAppStore((s) => s.sessions);
  const loadSessions = useAppStore((s) => s.loadSessions);
  const selectSession = useAppStore((s) => s.selectSession);
  const navigate = useAppStore((s) => s.navigate);
  useEffect(() => {
    void loadSessions();
  }, [loadSessions]);

  const mine = sessions.data.filter((s) => s.credential_id === id);
  const load: ListLoad = { state: sessions, noun: 'sessions', onRetry: () => void loadSessions() };
  return (
    <section className="card" aria-labelledby="login-sessions-title">
      <div className="card-header">
        <h2 id="login-sessions-title">Sessions made from it</h2>
        {sessions.status === 'ready' ? <span className="muted">{mine.length} cached</span> : null}
      </div>
      <DataTable
        label="Sessions made from this saved login"
        compact
        rows={mine}
        rowKey={(s) => s.id}
        rowTestId="login-session-row"
        columns={COLUMNS}
        load={load}
        empty={
          <EmptyState title="No cached session" testId="login-sessions-empty">
            A login with this saved login (by an agent, or Test now) caches a session that it can renew.
          </EmptyState>
        }
        actions={(s) => (
          <button
            type="button"
            className="btn btn-secondary btn-small"
            aria-label={`Open in Sessions: ${hostOf(s.origin)} ${s.username}`.trim()}
            onClick={() => {
              selectSession(s.id);
              navigate('sessions');
            }}
          >
            Open in Sessions
          </button>
        )}
      />
    </section>
  );
}
