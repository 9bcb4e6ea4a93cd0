import { useState } from 'react';
import type { ApiKeySummary } from '../../../shared/ipc-contract.js';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { DataTable, NoValue, type Column } from '../../components/DataTable';
import { EmptyState, ErrorBanner } from '../../components/StatusViews';
import { errorMessage } from '../../lib/api';
import { formatDate, formatRelative } from '../../lib/format';
import { useItemAction } from '../../lib/use-item-action';
import { useScrollIntoView } from '../../lib/use-scroll-into-view';
import { useAppStore } from '../../stores/app-store';
import type { CreatedKey } from '../../stores/admin.slice';
import { KeyCreateForm } from './KeyCreateForm';
import { SettingsSection } from './SettingsSection';

function keyState(k: ApiKeySummary, now = Date.now()): { label: string; tone: string } {
  if (k.revoked_at !== null) return { label: 'Revoked', tone: 'danger' };
  if (k.expires_at !== null && k.expires_at <= now) return { label: 'Expired', tone: 'warning' };
  return { label: 'Active', tone: 'success' };
}

const KEY_COLUMNS: Column<ApiKeySummary>[] = [
  {
    header: 'Name',
    cell: (k) => (
      <>
        <div className="cell-title">{k.name || <NoValue text="Unnamed" />}</div>
        <div className="cell-sub mono">{k.id}</div>
      </>
    ),
  },
  { header: 'Key', cellClassName: 'mono', cell: (k) => `${k.prefix}…` },
  {
    header: 'Scopes',
    cell: (k) => (
      <div className="scopes-cell">
        {k.scopes.includes('*') ? (
          <span className="badge badge-accent">All scopes</span>
        ) : (
          k.scopes.map((s) => (
            <span key={s} className="badge badge-neutral">
              {s}
            </span>
          ))
        )}
      </div>
    ),
  },
  { header: 'Created', cell: (k) => formatDate(k.created_at) },
  { header: 'Last used', cell: (k) => (k.last_used_at ? formatRelative(k.last_used_at) : <NoValue text="Never" />) },
  {
    header: 'Status',
    cell: (k) => {
      const state = keyState(k);
      return (
        <span className={`badge badge-${state.tone}`} data-testid="key-status">
          {state.label}
        </span>
      );
    },
  },
];

export function ApiKeysSection() {
  const orgs = useAppStore((s) => s.orgs);
  const orgId = useAppStore((s) => s.adminOrgId);
  const selectOrg = useAppStore((s) => s.selectAdminOrg);
  const keys = useAppStore((s) => s.keys);
  const loadKeys = useAppStore((s) => s.loadKeys);
  const revokeKey = useAppStore((s) => s.revokeKey);
  const revocation = useItemAction(revokeKey);
  // The new key's plaintext lives in this component only: leaving the screen forgets it for good.
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const createdRef = useScrollIntoView<HTMLDivElement>(created?.info.id ?? null);

  return (
    <SettingsSection
      id="keys"
      title="API keys"
      description="Agents send a key as Authorization: Bearer pk_…. A key belongs to one organization; its scopes say what it may do. Only a hash is stored, so a key is shown once, when it is made."
      aside={
        <label className="inline-select">
          <span className="inline-label">Organization</span>
          <select value={orgId ?? ''} onChange={(e) => void selectOrg(e.target.value)} disabled={!orgs.data.length}>
            {orgs.data.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
                {o.desktop ? ' (this window)' : ''}
              </option>
            ))}
          </select>
        </label>
      }
    >
      {created ? (
        <div className="secret-panel" ref={createdRef} role="alert" data-testid="created-key">
          <div>
            <strong>Copy the new key now: it is shown only this once.</strong>
            <p className="muted">
              {created.info.name || 'Unnamed key'} ·{' '}
              {created.info.scopes.includes('*') ? 'all scopes' : created.info.scopes.join(', ')}
            </p>
          </div>
          <div className="secret-row">
            <code className="secret-value" data-testid="created-key-value">
              {created.key}
            </code>
            <CopyButton text={created.key} label="Copy the new API key" />
            <button type="button" className="btn btn-secondary btn-small" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      {revocation.error ? (
        <ErrorBanner title="The key was not revoked" message={errorMessage(revocation.error)} />
      ) : null}
      <DataTable
        label="API keys"
        rows={keys.data}
        rowKey={(k) => k.id}
        rowTestId="key-row"
        rowAttributes={(k) => ({ 'data-key-id': k.id })}
        columns={KEY_COLUMNS}
        load={{ state: keys, noun: 'keys', onRetry: () => void loadKeys() }}
        empty={<EmptyState title="No keys in this organization" />}
        actions={(k) =>
          k.desktop ? (
            <span className="badge badge-neutral" title="The key this window uses">
              This window
            </span>
          ) : k.revoked_at === null ? (
            <ConfirmButton
              label="Revoke"
              confirmLabel="Revoke now"
              ariaLabel={`Revoke key ${k.name || k.prefix}`}
              busy={revocation.busyId === k.id}
              onConfirm={() => revocation.run(k.id)}
            />
          ) : null
        }
      />
      <KeyCreateForm onCreated={setCreated} />
    </SettingsSection>
  );
}
