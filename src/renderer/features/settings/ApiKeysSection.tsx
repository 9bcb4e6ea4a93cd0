import { useState } from 'react';
import type { ApiKeySummary } from '../../../shared/ipc-contract.js';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { EmptyState, ErrorBanner, ListStatus } from '../../components/StatusViews';
import { errorMessage } from '../../lib/api';
import { formatDate, formatRelative } from '../../lib/format';
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

export function ApiKeysSection() {
  const orgs = useAppStore((s) => s.orgs);
  const orgId = useAppStore((s) => s.adminOrgId);
  const selectOrg = useAppStore((s) => s.selectAdminOrg);
  const keys = useAppStore((s) => s.keys);
  const loadKeys = useAppStore((s) => s.loadKeys);
  const revokeKey = useAppStore((s) => s.revokeKey);
  // The new key's plaintext lives in this component only: leaving the screen forgets it for good.
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const createdRef = useScrollIntoView<HTMLDivElement>(created?.info.id ?? null);

  const revoke = async (id: string) => {
    setRevoking(id);
    setRowError(null);
    try {
      await revokeKey(id);
    } catch (err) {
      setRowError(errorMessage(err));
    } finally {
      setRevoking(null);
    }
  };

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
      {rowError ? <ErrorBanner title="The key was not revoked" message={rowError} /> : null}
      <ListStatus
        list={keys}
        noun="keys"
        onRetry={() => void loadKeys()}
        empty={<EmptyState title="No keys in this organization" />}
      />
      {keys.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table" aria-label="API keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => {
                const state = keyState(k);
                return (
                  <tr key={k.id} data-testid="key-row" data-key-id={k.id}>
                    <td>
                      <div className="cell-title">{k.name || <span className="muted">Unnamed</span>}</div>
                      <div className="cell-sub mono">{k.id}</div>
                    </td>
                    <td className="mono">{k.prefix}…</td>
                    <td>
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
                    </td>
                    <td>{formatDate(k.created_at)}</td>
                    <td>{k.last_used_at ? formatRelative(k.last_used_at) : <span className="muted">Never</span>}</td>
                    <td>
                      <span className={`badge badge-${state.tone}`} data-testid="key-status">
                        {state.label}
                      </span>
                    </td>
                    <td className="actions">
                      {k.desktop ? (
                        <span className="badge badge-neutral" title="The key this window uses">
                          This window
                        </span>
                      ) : k.revoked_at === null ? (
                        <ConfirmButton
                          label="Revoke"
                          confirmLabel="Revoke now"
                          ariaLabel={`Revoke key ${k.name || k.prefix}`}
                          busy={revoking === k.id}
                          onConfirm={() => revoke(k.id)}
                        />
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <KeyCreateForm onCreated={setCreated} />
    </SettingsSection>
  );
}
