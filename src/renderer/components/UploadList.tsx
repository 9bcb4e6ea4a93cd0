import { formatBytes } from '../lib/format';
import { DataList } from './DataList';
import { fileIconOf, Icon } from './Icon';
import type { UploadItem } from '../stores/uploads.slice';
import { ProgressBar } from './ProgressBar';

/**
 * Files picked or dropped and still uploading (or failed); `onUpload` starts one that is only picked,
 * `onDismiss` removes a failed one from the list.
 */
export function UploadList({
  items,
  label,
  onUpload,
  onDismiss,
}: {
  items: readonly UploadItem[];
  label?: string;
  onUpload?: (item: UploadItem) => void;
  onDismiss?: (item: UploadItem) => void;
}) {
  return (
    <DataList
      label={label}
      className="upload-list"
      items={items}
      itemKey={(u) => u.file.token}
      itemClassName="upload-row"
      itemTestId="upload-row"
      renderItem={(u) => (
        <UploadRow
          item={u}
          onUpload={onUpload ? () => onUpload(u) : undefined}
          onDismiss={onDismiss ? () => onDismiss(u) : undefined}
        />
      )}
    />
  );
}

/** One picked file: name, size, progress while uploading, storage key when done. */
function UploadRow({ item, onUpload, onDismiss }: { item: UploadItem; onUpload?: () => void; onDismiss?: () => void }) {
  const pct = item.file.size > 0 ? (item.loaded / item.file.size) * 100 : item.status === 'done' ? 100 : 0;
  return (
    <>
      <div className="upload-main">
        <div className="upload-name">
          <span className="file-icon">
            <Icon name={fileIconOf(item.file.content_type)} size={20} />
          </span>
          <div>
            <div className="cell-title">{item.file.name}</div>
            <div className="cell-sub">
              {formatBytes(item.file.size)} · {item.file.content_type}
            </div>
          </div>
        </div>
        <div className="upload-status">
          {item.status === 'picked' && onUpload ? (
            <button type="button" className="btn btn-primary btn-small" onClick={onUpload}>
              Upload
            </button>
          ) : null}
          {item.status === 'uploading' ? <span className="muted">{Math.round(pct)}%</span> : null}
          {item.status === 'done' ? <span className="badge badge-success">Uploaded</span> : null}
          {item.status === 'failed' ? <span className="badge badge-danger">Failed</span> : null}
          {item.status === 'failed' && onDismiss ? (
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={onDismiss}
              aria-label={`Dismiss ${item.file.name}`}
            >
              Dismiss
            </button>
          ) : null}
        </div>
      </div>
      {item.status === 'uploading' || item.status === 'done' ? (
        <ProgressBar
          value={pct}
          label={`Upload of ${item.file.name}`}
          tone={item.status === 'done' ? 'success' : 'accent'}
        />
      ) : null}
      {item.result ? (
        <div className="upload-key">
          <span className="muted">Storage key</span>
          <code className="selectable" data-testid="upload-key">
            {item.result.s3_key}
          </code>
        </div>
      ) : null}
      {item.error ? (
        <p className="field-error" role="alert">
          {item.error}
        </p>
      ) : null}
    </>
  );
}
