import { useEffect, useState } from 'react';
import type { UploadInfo } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { CONFIRM_DELAY_MS } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { Thumbnail } from '../../components/Thumbnail';
import { formatBytes, formatDate } from '../../lib/format';
import { useItemAction } from '../../lib/use-item-action';
import { useAppStore } from '../../stores/app-store';

const SOURCE_LABELS: Record<UploadInfo['source'], string> = {
  presign: 'Uploaded',
  url: 'From a URL',
  data_uri: 'From a data URI',
  multipart: 'Sent with a request',
};

/**
 * One stored file (inside its `<li>`): its preview, name, size and storage key (copy), and delete, which
 * first asks — saying what still uses the file — with Delete now and Cancel.
 */
export function StoredUploadCard({ upload: u }: { upload: UploadInfo }) {
  const remove = useAppStore((s) => s.deleteStoredUpload);
  const removal = useItemAction(remove);
  const [asking, setAsking] = useState(false);
  // As ConfirmButton: the second click of a double-click lands on nothing.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!asking) return setReady(false);
    const t = setTimeout(() => setReady(true), CONFIRM_DELAY_MS);
    return () => clearTimeout(t);
  }, [asking]);
  const name = u.file_name ?? u.s3_key.split('/').pop() ?? u.s3_key;
  return (
    <>
      <Thumbnail url={u.url} contentType={u.content_type} alt={name} size="large" />
      <div className="stored-body">
        <div className="cell-title truncate" title={name}>
          {name}
        </div>
        <div className="cell-sub">
          {formatBytes(u.size)} · {u.content_type} · {SOURCE_LABELS[u.source]} {formatDate(u.created_at)}
        </div>
        <code className="selectable stored-key" data-testid="stored-key" title={u.s3_key}>
          {u.s3_key}
        </code>
        <div className="stored-actions">
          <CopyButton text={u.s3_key} label={`Copy key of ${name}`} caption="Copy key" />
          {asking ? null : (
            <button
              type="button"
              className="btn btn-ghost-danger btn-small"
              aria-label={`Delete ${name}`}
              disabled={removal.busyId !== null}
              onClick={() => setAsking(true)}
            >
              Delete
            </button>
          )}
        </div>
        {asking ? (
          <div className="delete-confirm" role="group" aria-label={`Delete ${name}?`}>
            <p className={u.used_by ? 'error-text' : 'muted'} data-testid="delete-question">
              {u.used_by
                ? `It is used by ${u.used_by}: it cannot be deleted until it is removed there.`
                : 'Nothing uses this file. Delete it for good?'}
            </p>
            <div className="stored-actions">
              <button
                type="button"
                className="btn btn-danger btn-small"
                aria-label={`Delete now: ${name}`}
                disabled={!ready || removal.busyId !== null}
                onClick={() => {
                  setAsking(false);
                  void removal.run(u.s3_key);
                }}
              >
                {removal.busyId ? 'Deleting…' : 'Delete now'}
              </button>
              <button type="button" className="btn btn-secondary btn-small" onClick={() => setAsking(false)}>
                Cancel
              </button>
            </div>
          </div>
        ) : null}
        {removal.error ? <ApiErrorBanner title="Not deleted" error={removal.error} /> : null}
      </div>
    </>
  );
}
