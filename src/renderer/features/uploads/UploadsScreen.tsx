import { useEffect, useState } from 'react';
import { DataList } from '../../components/DataList';
import { DropZone } from '../../components/DropZone';
import { RefreshButton, type ListLoad } from '../../components/ListFrame';
import { PageHeader } from '../../components/PageHeader';
import { ErrorBanner, EmptyState } from '../../components/StatusViews';
import { UploadList } from '../../components/UploadList';
import { errorMessage } from '../../lib/api';
import { focusIntoView, useScrollIntoView } from '../../lib/use-scroll-into-view';
import { useAppStore } from '../../stores/app-store';
import type { UploadKind } from '../../stores/uploads.slice';
import { StoredUploadCard } from './StoredUploadCard';

const KINDS: { value: UploadKind; label: string }[] = [
  { value: 'any', label: 'Any type' },
  { value: 'image', label: 'Image (up to 20 MB)' },
  { value: 'video', label: 'Video (up to 200 MB)' },
  { value: 'audio', label: 'Audio (up to 50 MB)' },
  { value: 'captions', label: 'Captions, SRT or WebVTT (up to 512 KB)' },
];

export function UploadsScreen() {
  const uploads = useAppStore((s) => s.uploads);
  const pickFile = useAppStore((s) => s.pickFile);
  const upload = useAppStore((s) => s.upload);
  const uploadFiles = useAppStore((s) => s.uploadFiles);
  const dismiss = useAppStore((s) => s.dismissUpload);
  const stored = useAppStore((s) => s.storedUploads);
  const loadStored = useAppStore((s) => s.loadStoredUploads);
  const [kind, setKind] = useState<UploadKind>('any');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void loadStored();
  }, [loadStored]);

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
  const take = async (files: File[]) => {
    setError(null);
    const before = new Set(useAppStore.getState().uploads.map((u) => u.file.token));
    try {
      await uploadFiles(files, 'uploads');
    } catch (err) {
      // A file that got a row says why it failed there, once; the banner is for one that never got a row
      // (not a file on this computer).
      const onRow = useAppStore
        .getState()
        .uploads.some((u) => !before.has(u.file.token) && u.status === 'failed' && u.error !== null);
      if (!onRow) setError(errorMessage(err));
    }
  };

  // Finished uploads show in the stored list; this list keeps what is still going or failed.
  const pending = uploads.filter((u) => u.status !== 'done');
  const shown = kind === 'any' ? stored.data : stored.data.filter((u) => u.kind === kind);
  // A started upload brings its row (progress, then its key or why it failed) into view, with focus.
  const liveRef = useScrollIntoView<HTMLDivElement>(pending[0]?.file.token ?? null, { focus: true });
  // Once every upload is done the live box is empty: the focus it held goes to the newest file's card in Your
  // files (its Copy key button, the next thing one does with it), not left on an empty outlined box. Only when the
  // focus is still there (or lost to the page's body): a person who moved on keeps their place.
  const newest = pending.length === 0 ? (uploads.find((u) => u.status === 'done')?.result?.s3_key ?? null) : null;
  useEffect(() => {
    const box = liveRef.current;
    const active = document.activeElement;
    if (!newest || !box || !(active === document.body || box.contains(active))) return;
    const key = document.querySelector(`[data-testid="stored-key"][title="${CSS.escape(newest)}"]`);
    focusIntoView(key?.closest('[data-testid="stored-upload"]')?.querySelector<HTMLElement>('button'), {
      smooth: true,
    });
  }, [newest, stored.data, liveRef]);
  const storedLoad: ListLoad = { state: stored, noun: 'uploads', onRetry: () => void loadStored() };
  return (
    <div className="page page-wide">
      <PageHeader
        title="Uploads"
        description="Images, videos, audio and captions in local storage. Use a file's storage key in generation requests or as a character's reference image."
        actions={<RefreshButton load={storedLoad} />}
      />
      <section className="card" aria-labelledby="upload-title">
        <div className="card-header">
          <h2 id="upload-title">Upload files</h2>
        </div>
        <DropZone className="upload-drop" label="Drop or paste files to upload" onFiles={(files) => void take(files)}>
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
            <span className="muted">or drop files here, or click here and paste an image</span>
          </div>
        </DropZone>
        {error ? <ErrorBanner title="Could not upload" message={error} /> : null}
        <div
          ref={liveRef}
          tabIndex={-1}
          className="reveal-target"
          role={pending.length ? 'region' : undefined}
          aria-label={pending.length ? 'Uploads in progress' : undefined}
        >
          <UploadList
            label="Uploads in progress"
            items={pending}
            onUpload={(u) => void upload(u.file.token).catch(() => undefined)}
            onDismiss={(u) => dismiss(u.file.token)}
          />
        </div>
      </section>
      <section className="card" aria-labelledby="stored-title">
        <div className="card-header">
          <h2 id="stored-title">Your files</h2>
          {stored.status === 'ready' ? (
            <span className="muted">
              {shown.length} file{shown.length === 1 ? '' : 's'}
            </span>
          ) : null}
        </div>
        <DataList
          label="Stored files"
          className="stored-grid"
          testId="stored-uploads"
          items={shown}
          itemKey={(u) => u.s3_key}
          itemClassName="stored-card"
          itemTestId="stored-upload"
          load={storedLoad}
          empty={
            <EmptyState title="No files yet" testId="uploads-empty">
              Files uploaded here, in Generate or in Characters, and media agents sent, appear here.
            </EmptyState>
          }
          renderItem={(u) => <StoredUploadCard upload={u} />}
        />
      </section>
    </div>
  );
}
