import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorBanner } from '../../components/StatusViews';
import { UploadRow } from '../../components/UploadRow';
import { errorMessage } from '../../lib/api';
import { useAppStore } from '../../stores/app-store';
import type { UploadKind } from '../../stores/uploads.slice';

const KINDS: { value: UploadKind; label: string }[] = [
  { value: 'any', label: 'Any media' },
  { value: 'image', label: 'Image (up to 20 MB)' },
  { value: 'video', label: 'Video (up to 200 MB)' },
  { value: 'audio', label: 'Audio (up to 50 MB)' },
];

export function UploadsScreen() {
  const uploads = useAppStore((s) => s.uploads);
  const pickFile = useAppStore((s) => s.pickFile);
  const upload = useAppStore((s) => s.upload);
  const [kind, setKind] = useState<UploadKind>('any');
  const [error, setError] = useState<string | null>(null);

  const choose = async () => {
    setError(null);
    try {
      const file = await pickFile(kind, 'uploads');
      // Upload right away: choosing is the user's intent.
      if (file) await upload(file.token).catch(() => undefined);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <div className="page">
      <PageHeader
        title="Uploads"
        description="Upload images, videos and audio to local storage. Use the storage key in generation requests or character references."
      />
      <section className="card" aria-labelledby="upload-title">
        <div className="card-header">
          <h2 id="upload-title">Upload a file</h2>
        </div>
        <div className="toolbar">
          <label className="inline-label" htmlFor="upload-kind">
            File type
          </label>
          <select id="upload-kind" value={kind} onChange={(e) => setKind(e.target.value as UploadKind)}>
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
          <button type="button" className="btn btn-primary" onClick={() => void choose()}>
            Choose file…
          </button>
        </div>
        {error ? <ErrorBanner title="Could not open the file" message={error} /> : null}
      </section>
      <section className="card" aria-labelledby="upload-history-title">
        <div className="card-header">
          <h2 id="upload-history-title">This session</h2>
        </div>
        {uploads.length === 0 ? (
          <EmptyState title="Nothing uploaded yet">
            Files you upload here, in Generate or in Characters appear in this list.
          </EmptyState>
        ) : (
          <ul className="upload-list" aria-label="Uploads">
            {uploads.map((u) => (
              <UploadRow
                key={u.file.token}
                item={u}
                onUpload={() => void upload(u.file.token).catch(() => undefined)}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
