import { useState, type FormEvent } from 'react';
import type { Character } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { Field } from '../../components/Field';
import { Thumbnail } from '../../components/Thumbnail';
import { formatDate } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';
import { MAX_REFERENCE_IMAGES, ReferenceImages, type ReferenceImage } from './ReferenceImages';

const imagesOf = (c: Character): ReferenceImage[] =>
  c.reference_image_keys.map((key, i) => ({
    key,
    name: key.split('/').pop() ?? key,
    url: c.reference_image_urls[i] ?? null,
  }));

/**
 * An opened character: its reference images large, its id to copy; the organization's own characters
 * can be edited (name, description, images) and deleted, public ones only looked at.
 */
export function CharacterDetail({ character: c, onClose }: { character: Character; onClose: () => void }) {
  const update = useAppStore((s) => s.updateCharacter);
  const remove = useAppStore((s) => s.deleteCharacter);
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(c.name);
  const [description, setDescription] = useState(c.description ?? '');
  const [images, setImages] = useState<ReferenceImage[]>(() => imagesOf(c));
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const own = c.visibility === 'private';

  const startEditing = () => {
    setName(c.name);
    setDescription(c.description ?? '');
    setImages(imagesOf(c));
    setError(null);
    setEditing(true);
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setNameError('Name is required');
    setNameError(null);
    setBusy(true);
    setError(null);
    try {
      await update(c.id, {
        name: name.trim(),
        description: description.trim() || null,
        reference_image_keys: images.map((i) => i.key),
      });
      setEditing(false);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const del = async () => {
    setBusy(true);
    setError(null);
    try {
      await remove(c.id);
      onClose();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <section className="card character-detail" aria-label={`Character ${c.name}`} data-testid="character-detail">
      <div className="card-header">
        <h2>{c.name}</h2>
        <div className="detail-actions">
          {own && !editing ? (
            <>
              <button type="button" className="btn btn-secondary btn-small" onClick={startEditing}>
                Edit
              </button>
              <ConfirmButton label="Delete" ariaLabel={`Delete character ${c.name}`} busy={busy} onConfirm={del} />
            </>
          ) : null}
          <button type="button" className="btn btn-secondary btn-small" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      {error ? <ApiErrorBanner title={editing ? 'Not saved' : 'Not deleted'} error={error} /> : null}
      {editing ? (
        <form className="form-grid" onSubmit={save} noValidate aria-label="Edit character">
          <Field label="Name" required error={nameError}>
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
          </Field>
          <Field label="Description">
            <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
          </Field>
          <div className="span-2 field">
            <div className="field-label-row">
              <span className="label-text" id="edit-reference-images-label">
                Reference images
              </span>
              <span className="field-aside">
                {images.length}/{MAX_REFERENCE_IMAGES}
              </span>
            </div>
            <ReferenceImages images={images} labelId="edit-reference-images-label" onChange={setImages} />
          </div>
          <div className="form-actions span-2">
            <button type="submit" className="btn btn-primary" disabled={busy || images.length === 0}>
              {busy ? 'Saving…' : 'Save changes'}
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <div className="character-images">
            {c.reference_image_keys.map((key, i) => (
              <Thumbnail
                key={key}
                url={c.reference_image_urls[i]}
                contentType="image/png"
                alt={`${c.name}, reference image ${i + 1}`}
                size="large"
              />
            ))}
          </div>
          {c.description ? <p className="detail-description">{c.description}</p> : null}
          <p className="cell-sub">
            {own ? 'Private to your organization' : 'Public (built in, read-only)'}
            {c.created_at ? ` · created ${formatDate(c.created_at)}` : ''}
          </p>
          <div className="exports-row">
            <span className="mono muted">{c.id}</span>
            <CopyButton text={c.id} label={`Copy id of ${c.name}`} caption="Copy id" />
          </div>
        </>
      )}
    </section>
  );
}
