import { useId, useState } from 'react';
import type { Character, InputVariable } from '../../../shared/ipc-contract.js';
import { KIND_ARTICLE } from '../../../shared/media-types.js';
import { DropZone } from '../../components/DropZone';
import { Field } from '../../components/Field';
import { Thumbnail } from '../../components/Thumbnail';
import { errorMessage } from '../../lib/api';
import { useAppStore } from '../../stores/app-store';
import { CaptionsInput } from './CaptionsInput';

export interface VariableValue {
  text?: string;
  /** Media: a storage key (after upload) or an http(s) URL the user pasted. */
  reference?: string;
  /** A picked file's name, for display. */
  fileName?: string;
  characterId?: string;
}

export function VariableInput({
  variable: v,
  value,
  error,
  characters,
  onChange,
}: {
  variable: InputVariable;
  value: VariableValue;
  error?: string;
  /** Characters that may stand in for this image variable, or null when not allowed. */
  characters: Character[] | null;
  onChange: (value: VariableValue) => void;
}) {
  if (v.type === 'text') {
    const text = value.text ?? '';
    const long = (v.max_length ?? 0) > 200;
    const counter = v.max_length !== undefined ? `${text.length}/${v.max_length}` : undefined;
    const hint = [
      v.description,
      v.default_value ? `Default: “${v.default_value}”` : '',
      v.min_length ? `At least ${v.min_length} characters.` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const props = {
      value: text,
      placeholder: v.placeholder ?? v.default_value ?? '',
      maxLength: v.max_length,
      onChange: (e: { target: { value: string } }) => onChange({ ...value, text: e.target.value }),
    };
    return (
      <Field
        label={v.label}
        required={v.required && !v.default_value}
        error={error}
        hint={hint || undefined}
        aside={counter}
      >
        {long ? <textarea rows={3} {...props} /> : <input {...props} />}
      </Field>
    );
  }
  if (v.type === 'captions') return <CaptionsInput variable={v} value={value} error={error} onChange={onChange} />;
  return <MediaInput variable={v} value={value} error={error} characters={characters} onChange={onChange} />;
}

function MediaInput({
  variable: v,
  value,
  error,
  characters,
  onChange,
}: {
  variable: InputVariable;
  value: VariableValue;
  error?: string;
  characters: Character[] | null;
  onChange: (value: VariableValue) => void;
}) {
  const pickFile = useAppStore((s) => s.pickFile);
  const upload = useAppStore((s) => s.upload);
  const uploads = useAppStore((s) => s.uploads);
  const uploadFiles = useAppStore((s) => s.uploadFiles);
  const stored = useAppStore((s) => s.storedUploads.data.find((u) => u.s3_key === value.reference));
  const [dropping, setDropping] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploadToken, setUploadToken] = useState<string | null>(null);
  const groupId = useId();
  const kind = v.type as 'image' | 'video' | 'audio';
  const inFlight = uploads.find((u) => u.file.token === uploadToken && u.status === 'uploading');

  /** A file dropped or pasted on the field: uploaded like a chosen one (the first, when several come). */
  const take = async (files: File[]) => {
    setUploadError(null);
    setDropping(true);
    try {
      const [uploaded] = await uploadFiles(files.slice(0, 1), 'generate');
      if (uploaded) onChange({ ...value, reference: uploaded.s3_key, fileName: uploaded.name });
    } catch (err) {
      setUploadError(errorMessage(err));
    } finally {
      setDropping(false);
    }
  };

  const choose = async () => {
    setUploadError(null);
    try {
      const file = await pickFile(kind, 'generate');
      if (!file) return;
      setUploadToken(file.token);
      const uploaded = await upload(file.token);
      onChange({ ...value, reference: uploaded.s3_key, fileName: uploaded.name });
    } catch (err) {
      setUploadError(errorMessage(err));
    }
  };

  return (
    <div
      className={`field media-field${error ? ' field-invalid' : ''}`}
      role="group"
      aria-labelledby={`${groupId}-label`}
    >
      <div className="field-label-row">
        <span className="label-text" id={`${groupId}-label`}>
          {v.label}
          {v.required && !v.default_value ? <span className="required"> *</span> : null}
        </span>
        <span className={`badge badge-type-${kind}`}>{kind}</span>
      </div>
      {v.description ? <p className="field-hint">{v.description}</p> : null}
      <DropZone
        className="media-row"
        label={`Drop or paste ${KIND_ARTICLE[kind]} for ${v.label}`}
        onFiles={(files) => void take(files)}
        disabled={Boolean(inFlight) || dropping}
      >
        {stored ? <Thumbnail url={stored.url} contentType={stored.content_type} alt={v.label} size="small" /> : null}
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => void choose()}
          disabled={Boolean(inFlight) || dropping}
        >
          {inFlight
            ? `Uploading ${Math.round((inFlight.loaded / Math.max(1, inFlight.file.size)) * 100)}%`
            : dropping
              ? 'Uploading…'
              : `Choose ${kind}…`}
        </button>
        <span className="muted">or</span>
        <label className="sr-only" htmlFor={`${groupId}-ref`}>
          {v.label} URL or storage key
        </label>
        <input
          id={`${groupId}-ref`}
          className="grow mono"
          placeholder={v.default_value ? `Default: ${v.default_value}` : 'https://… or a storage key'}
          value={value.reference ?? ''}
          onChange={(e) => onChange({ ...value, reference: e.target.value, fileName: undefined })}
        />
      </DropZone>
      <p className="field-hint">Or drop a file here, or paste an image.</p>
      {value.fileName ? (
        <p className="field-hint">
          Uploaded <strong>{value.fileName}</strong>
        </p>
      ) : null}
      {characters ? (
        <div className="character-pick">
          <label htmlFor={`${groupId}-character`}>Or use a character</label>
          <select
            id={`${groupId}-character`}
            value={value.characterId ?? ''}
            onChange={(e) => onChange({ ...value, characterId: e.target.value || undefined })}
          >
            <option value="">— none —</option>
            {characters.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
                {c.visibility === 'private' ? ' (yours)' : ''}
              </option>
            ))}
          </select>
          {value.characterId && value.reference ? (
            <span className="field-hint">The character wins over the image.</span>
          ) : null}
        </div>
      ) : null}
      {uploadError ? <p className="field-error">{uploadError}</p> : null}
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}
