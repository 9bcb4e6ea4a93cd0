import { useEffect } from 'react';
import type { ApiKeySummary } from '../../../shared/ipc-contract.js';
import type { CredentialUse } from '../../../shared/credentials.schema.js';
import { DataTable, NoValue, type Column } from '../../components/DataTable';
import { RefreshButton, type ListLoad } from '../../components/ListFrame';
import { EmptyState } from '../../components/StatusViews';
import { formatDate, formatRelative } from '../../lib/format';
import { initialLoadable } from '../../stores/loadable';
import { useAppStore } from '../../stores/app-store';
import { ENDPOINT_NAMES, usedBy } from './saved-login-format';
import { stacked } from './stacked-columns';

const EMPTY = initialLoadable<CredentialUse[]>([]);

function columnsFor(keys: readonly ApiKeySummary[]): Column<CredentialUse>[] {
  return stacked<CredentialUse>([
    {
      header: 'When',
      cellAttributes: (u) => ({ title: formatDate(u.at) }),
      cell: (u) => (
        <>
          <div>{formatDate(u.at)}</div>
          <div className="cell-sub">{formatRelative(u.at)}</div>
        </>
      ),
    },
    { header: 'Used by', cell: (u) => usedBy(u.keyId, keys) },
    {
      header: 'Endpoint',
      cell: (u) => (
        <>
          <div>{ENDPOINT_NAMES[u.endpoint] ?? u.endpoint}</div>
          {/* The name agents' logs use, under the words; a test from this window has no such name to look up. */}
          {u.endpoint === 'desktop_test' ? null : <div className="cell-sub mono">{u.endpoint}</div>}
        </>
      ),
    },
    {
      header: 'Outcome',
      cell: (u) => (
        <span className={`badge badge-${u.outcome === 'success' ? 'success' : 'danger'}`} data-testid="use-outcome">
          {u.outcome}
        </span>
      ),
    },
    { header: 'Site', cell: (u) => (u.origin ? <span className="mono">{u.origin}</span> : <NoValue />) },
  ]);
}

/** The use log: which key used the saved login, when, from which endpoint, with what outcome (newest first). */
export function UseLog({ id }: { id: string }) {
  const uses = useAppStore((s) => s.credentialUses[id]) ?? EMPTY;
  const load = useAppStore((s) => s.loadCredentialUses);
  const keys = useAppStore((s) => s.shareKeys);
  const loadKeys = useAppStore((s) => s.loadShareKeys);
  useEffect(() => {
    void load(id);
  }, [id, load]);
  useEffect(() => {
    if (keys.status === 'idle') void loadKeys();
  }, [keys.status, loadKeys]);

  const usesLoad: ListLoad = { state: uses, noun: 'the use log', onRetry: () => void load(id) };
  return (
    <section className="card" aria-labelledby="use-log-title">
      <div className="card-header">
        <h2 id="use-log-title">Use log</h2>
        <RefreshButton load={usesLoad} />
      </div>
      <DataTable
        label="Use log"
        compact
        rows={uses.data}
        rowKey={(u, i) => `${u.at}-${i}`}
        rowTestId="use-row"
        columns={columnsFor(keys.data)}
        load={usesLoad}
        empty={
          <EmptyState title="Not used yet" testId="uses-empty">
            Each login, refresh or test with this saved login is listed here, with the key that asked.
          </EmptyState>
        }
      />
    </section>
  );
}
