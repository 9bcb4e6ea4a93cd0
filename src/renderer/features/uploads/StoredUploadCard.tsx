import type { UploadInfo } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { ConfirmButton } from '../../components/ConfirmButton';
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

/** One stored file (inside its `<li>`): its preview, name, size and storage key (copy), and delete. */
export function StoredUploadCard({ upload: u }: { upload: UploadInfo }) {
  const remove = useAppStore((s) => s.deleteStoredUpload);
  const removal = useItemAction(remove);
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
          <ConfirmButton
            label="Delete"
            ariaLabel={`Delete ${name}`}
            busy={removal.busyId !== null}
            onConfirm={() => removal.run(u.s3_key)}
          />
        </div>
        {removal.error ? <ApiErrorBanner title="Not deleted" error={removal.error} /> : null}
      </div>
    </>
  );
}
