import { useState } from 'react';
import { DropZone } from '../../components/DropZone';
import { ErrorBanner } from '../../components/StatusViews';
import { Thumbnail } from '../../components/Thumbnail';
import { UploadList } from '../../components/UploadList';
import { errorMessage } from '../../lib/api';
import { useAppStore } from '../../stores/app-store';

export const MAX_REFERENCE_IMAGES = 4;

/** A reference image: its storage key, a name to show, and a URL to preview it when known. */
export interface ReferenceImage {
  key: string;
  name: string;
  url: string | null;
}

/**
 * A character's 1-4 reference images as thumbnails, with remove buttons, "Add image…" (the file
 * picker), and drag-and-drop or paste onto the list. New files are uploaded before they are added.
 */
export function ReferenceImages({
  images,
  onChange,
  error,
  labelId,
}: {
  images: ReferenceImage[];
  onChange: (images: ReferenceImage[]) => void;
  error?: string;
  labelId: string;
}) {
  const pickAndUpload = useAppStore((s) => s.pickAndUpload);
  const uploadFiles = useAppStore((s) => s.uploadFiles);
  const uploads = useAppStore((s) => s.uploads);
  const stored = useAppStore((s) => s.storedUploads.data);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const room = MAX_REFERENCE_IMAGES - images.length;

  const urlOf = (key: string) => stored.find((u) => u.s3_key === key)?.url ?? null;
  const add = (added: { s3_key: string; name: string }[]) =>
    onChange([...images, ...added.map((u) => ({ key: u.s3_key, name: u.name, url: urlOf(u.s3_key) }))]);

  const run = async (work: () => Promise<{ s3_key: string; name: string }[]>) => {
    setUploadError(null);
    setBusy(true);
    try {
      add(await work());
    } catch (err) {
      setUploadError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const inFlight = uploads.filter((u) => u.origin === 'characters' && u.status === 'uploading');
  return (
    <>
      <DropZone
        className="reference-images"
        label="Drop or paste reference images"
        disabled={busy || room <= 0}
        onFiles={(files) => void run(() => uploadFiles(files.slice(0, room), 'characters'))}
      >
        <ul className="chips" aria-labelledby={labelId}>
          {images.map((img) => (
            <li className="chip chip-image" key={img.key}>
              <Thumbnail url={img.url ?? urlOf(img.key)} contentType="image/png" alt={img.name} size="small" />
              <span className="truncate">{img.name}</span>
              <button
                type="button"
                aria-label={`Remove ${img.name}`}
                onClick={() => onChange(images.filter((x) => x.key !== img.key))}
              >
                ×
              </button>
            </li>
          ))}
          {room > 0 ? (
            <li>
              <button
                type="button"
                className="btn btn-secondary btn-small"
                disabled={busy || inFlight.length > 0}
                onClick={() =>
                  void run(async () => {
                    const one = await pickAndUpload('image', 'characters');
                    return one ? [one] : [];
                  })
                }
              >
                + Add image…
              </button>
            </li>
          ) : null}
        </ul>
        <p className="field-hint">or drop images here, or click here and paste one</p>
      </DropZone>
      <UploadList items={inFlight} />
      {error ? <p className="field-error">{error}</p> : null}
      {uploadError ? <ErrorBanner title="Upload failed" message={uploadError} /> : null}
    </>
  );
}
