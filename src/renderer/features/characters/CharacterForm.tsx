import { useState, type FormEvent } from 'react';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Field } from '../../components/Field';
import { useAppStore } from '../../stores/app-store';
import { MAX_REFERENCE_IMAGES, ReferenceImages, type ReferenceImage } from './ReferenceImages';

export function CharacterForm({ onCreated }: { onCreated: (created: { id: string; name: string }) => void }) {
  const createCharacter = useAppStore((s) => s.createCharacter);
  const uploads = useAppStore((s) => s.uploads);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [images, setImages] = useState<ReferenceImage[]>([]);
  const [errors, setErrors] = useState<{ name?: string; images?: string }>({});
  const [serverError, setServerError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

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
      const created = await createCharacter({
        name: name.trim(),
        description: description.trim() || null,
        reference_image_keys: images.map((i) => i.key),
      });
      setName('');
      setDescription('');
      setImages([]);
      onCreated(created);
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
              {images.length}/{MAX_REFERENCE_IMAGES}
            </span>
          </div>
          <ReferenceImages
            images={images}
            labelId="reference-images-label"
            error={errors.images}
            onChange={(next) => {
              setImages(next);
              if (next.length) setErrors((x) => ({ ...x, images: undefined }));
            }}
          />
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
