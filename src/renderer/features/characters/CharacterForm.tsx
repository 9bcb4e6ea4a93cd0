import { useState, type FormEvent } from 'react';
import type { UploadedFile } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Field } from '../../components/Field';
import { ErrorBanner } from '../../components/StatusViews';
import { UploadRow } from '../../components/UploadRow';
import { errorMessage } from '../../lib/api';
import { useAppStore } from '../../stores/app-store';

const MAX_IMAGES = 4;

export function CharacterForm({ onCreated }: { onCreated: () => void }) {
  const createCharacter = useAppStore((s) => s.createCharacter);
  const pickAndUpload = useAppStore((s) => s.pickAndUpload);
  const uploads = useAppStore((s) => s.uploads);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [images, setImages] = useState<UploadedFile[]>([]);
  const [errors, setErrors] = useState<{ name?: string; images?: string }>({});
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const addImage = async () => {
    setUploadError(null);
    try {
      const uploaded = await pickAndUpload('image', 'characters');
      if (uploaded) {
        setImages((list) => [...list, uploaded]);
        setErrors((x) => ({ ...x, images: undefined }));
      }
    } catch (err) {
      setUploadError(errorMessage(err));
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'Name is required';
    if (images.length === 0) found.images = 'Add at least one reference image';
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await createCharacter({
        name: name.trim(),
        description: description.trim() || null,
        reference_image_keys: images.map((i) => i.s3_key),
      });
      setName('');
      setDescription('');
      setImages([]);
      onCreated();
    } catch (err) {
      setServerError(err);
    } finally {
      setBusy(false);
    }
  };

  const inFlight = uploads.filter((u) => u.origin === 'characters' && u.status === 'uploading');
  return (
    <section className="card" aria-labelledby="new-character-title">
      <div className="card-header">
        <h2 id="new-character-title">New character</h2>
        <span className="muted">Private to your organization.</span>
      </div>
      {serverError ? <ApiErrorBanner title="The character was not created" error={serverError} /> : null}
      <form className="form-grid" onSubmit={submit} noValidate aria-label="New character">
        <Field label="Name" required error={errors.name}>
          <input
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setErrors((x) => ({ ...x, name: undefined }));
            }}
            maxLength={100}
          />
        </Field>
        <Field label="Description">
          <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
        </Field>
        <div className="span-2 field">
          <div className="field-label-row">
            <span className="label-text" id="reference-images-label">
              Reference images <span className="required">*</span>
            </span>
            <span className="field-aside">
              {images.length}/{MAX_IMAGES}
            </span>
          </div>
          <div className="chips" aria-labelledby="reference-images-label">
            {images.map((img) => (
              <span className="chip" key={img.s3_key}>
                {img.name}
                <button
                  type="button"
                  aria-label={`Remove ${img.name}`}
                  onClick={() => setImages((l) => l.filter((x) => x.s3_key !== img.s3_key))}
                >
                  ×
                </button>
              </span>
            ))}
            {images.length < MAX_IMAGES ? (
              <button
                type="button"
                className="btn btn-secondary btn-small"
                onClick={() => void addImage()}
                disabled={inFlight.length > 0}
              >
                + Add image…
              </button>
            ) : null}
          </div>
          {inFlight.length ? (
            <ul className="upload-list">
              {inFlight.map((u) => (
                <UploadRow key={u.file.token} item={u} />
              ))}
            </ul>
          ) : null}
          {errors.images ? <p className="field-error">{errors.images}</p> : null}
          {uploadError ? <ErrorBanner title="Upload failed" message={uploadError} /> : null}
        </div>
        <div className="form-actions span-2">
          <button type="submit" className="btn btn-primary" disabled={busy || inFlight.length > 0}>
            {busy ? 'Creating…' : 'Create character'}
          </button>
        </div>
      </form>
    </section>
  );
}
