import { useEffect, type ReactNode } from 'react';
import type { SavedLogin } from '../../../shared/credentials.schema.js';
import { NoValue } from '../../components/DataTable';
import { formatDate, formatRelative } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';
import { DeleteSavedLogin } from './DeleteSavedLogin';
import { PasskeysExport } from './PasskeysExport';
import { SecretActions } from './SecretActions';
import { keyName, methodLabel } from './saved-login-format';
import { SessionsFromLogin } from './SessionsFromLogin';
import { TestNow } from './TestNow';
import { TestOffer } from './TestOffer';
import { UseLog } from './UseLog';

const SOURCES: Record<SavedLogin['source'], string> = {
  api: 'Added (app, API or CLI)',
  import: 'Imported',
  stored_credentials: 'Kept by a login (storeCredentials)',
};

function Stat({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** One saved login: what is known of it, its secrets (Reveal, Copy), Test now, its use log and its sessions. */
export function SavedLoginDetail({
  saved,
  justSaved = false,
  onEdit,
  onDeleted,
}: {
  saved: SavedLogin;
  /** Opened by a save of the form: it offers to test what was saved. */
  justSaved?: boolean;
  onEdit: () => void;
  onDeleted: () => void;
}) {
  const methods = useAppStore((s) => s.loginMethods);
  const loadMethods = useAppStore((s) => s.loadLoginMethods);
  const mailboxes = useAppStore((s) => s.mailboxes);
  const loadMailboxes = useAppStore((s) => s.loadMailboxes);
  const keys = useAppStore((s) => s.shareKeys);
  useEffect(() => {
    if (methods.status === 'idle') void loadMethods();
    if (mailboxes.status === 'idle' && saved.mailboxId) void loadMailboxes();
  }, [methods.status, mailboxes.status, saved.mailboxId, loadMethods, loadMailboxes]);

  const mailbox = saved.mailboxId ? mailboxes.data.find((m) => m.id === saved.mailboxId) : undefined;
  return (
    <>
      <section className="card saved-login-detail" aria-labelledby="saved-login-title" data-testid="saved-login-detail">
        <div className="card-header">
          <div className="detail-title">
            <h2 id="saved-login-title" tabIndex={-1} data-view-heading>
              {saved.label}
            </h2>
            <p className="cell-sub break-anywhere">{saved.loginUrl}</p>
          </div>
          <div className="detail-actions">
            <button type="button" className="btn btn-secondary btn-small" onClick={onEdit}>
              Edit
            </button>
          </div>
        </div>
        {justSaved ? <TestOffer id={saved.id} /> : null}
        <dl className="stats stats-grid">
          <Stat term="Username">{saved.username || <NoValue />}</Stat>
          <Stat term="Method">{methodLabel(saved.loginMethod, methods.data)}</Stat>
          <Stat term="Shared with">
            {saved.shareWith === 'all' ? (
              'All keys of the organization'
            ) : saved.shareWith.length === 0 ? (
              'No key (this app only)'
            ) : (
              <ul className="plain-list">
                {saved.shareWith.map((k) => (
                  <li key={k}>{keyName(k, keys.data)}</li>
                ))}
              </ul>
            )}
          </Stat>
          <Stat term="Last used">
            {saved.last_used_at ? (
              <span title={formatDate(saved.last_used_at)}>{formatRelative(saved.last_used_at)}</span>
            ) : (
              'Never'
            )}
          </Stat>
          <Stat term="Origins">
            <ul className="plain-list mono">
              {saved.origins.map((o) => (
                <li key={o}>{o}</li>
              ))}
            </ul>
          </Stat>
          {saved.mailboxId ? <Stat term="Mailbox">{mailbox ? mailbox.name : saved.mailboxId}</Stat> : null}
          {saved.phone ? <Stat term="Phone">{saved.phone}</Stat> : null}
          <Stat term="Source">{SOURCES[saved.source]}</Stat>
          <Stat term="Created">{formatDate(saved.created_at)}</Stat>
          <Stat term="Changed">{formatDate(saved.updated_at)}</Stat>
        </dl>
        <h3>Secrets</h3>
        <SecretActions saved={saved} />
        <PasskeysExport saved={saved} />
        <div className="detail-footer">
          <DeleteSavedLogin saved={saved} onDeleted={onDeleted} />
        </div>
      </section>
      <TestNow saved={saved} />
      <UseLog id={saved.id} />
      <SessionsFromLogin id={saved.id} />
    </>
  );
}
