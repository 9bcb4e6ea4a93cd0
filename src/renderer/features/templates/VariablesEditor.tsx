import { useEffect } from 'react';
import type { UploadInfo } from '../../../shared/ipc-contract.js';
import { VARIABLE_TYPES, type VariableType } from '../../../shared/video.schema.js';
import { Field } from '../../components/Field';
import { useAppStore } from '../../stores/app-store';
import { emptyVariable, type VariableDraft } from './template-form-state';
import { RolePicker } from './RolePicker';
import { VariableLimits } from './VariableLimits';

/** The template's input variables: add, remove, reorder, type, required, limits and defaults. */
export function VariablesEditor({
  variables,
  errors,
  unused = [],
  onChange,
}: {
  variables: VariableDraft[];
  errors: Record<string, string>;
  /** Text variables neither the prompt nor the provider uses (said on their key). */
  unused?: string[];
  onChange: (vars: VariableDraft[]) => void;
}) {
  const stored = useAppStore((s) => s.storedUploads);
  const loadStored = useAppStore((s) => s.loadStoredUploads);
  const hasMedia = variables.some((v) => v.type !== 'text');
  useEffect(() => {
    if (hasMedia && stored.status === 'idle') void loadStored({ quiet: true });
  }, [hasMedia, stored.status, loadStored]);

  const update = (uid: string, change: Partial<VariableDraft>) =>
    onChange(variables.map((v) => (v.uid === uid ? { ...v, ...change } : v)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...variables];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    onChange(next);
  };
  const err = (i: number, field: string) => errors[`input_variables.${i}.${field}`];
  return (
    <fieldset className="variables-editor">
      <legend>Input variables</legend>
      {errors.input_variables ? <p className="field-error">{errors.input_variables}</p> : null}
      {variables.length === 0 ? <p className="muted">No variables: the template takes no input.</p> : null}
      {variables.map((v, i) => {
        const name = v.key || String(i + 1);
        const files = stored.data.filter((u) => u.kind === v.type);
        const fileSelect = (
          <DefaultFileSelect
            variable={v}
            files={files}
            error={err(i, 'default_value')}
            onPick={(key) => update(v.uid, { default_value: key })}
          />
        );
        return (
          <div className="variable-card" key={v.uid} role="group" aria-label={`Variable ${i + 1}`}>
            <div className="variable-grid">
              <Field
                label="Key"
                required
                error={err(i, 'key')}
                hint={unused.includes(v.key.trim()) ? 'Not used in the prompt' : undefined}
              >
                <input
                  className="mono"
                  value={v.key}
                  onChange={(e) => update(v.uid, { key: e.target.value })}
                  placeholder="subject"
                />
              </Field>
              <Field label="Label" required error={err(i, 'label')}>
                <input
                  value={v.label}
                  onChange={(e) => update(v.uid, { label: e.target.value })}
                  placeholder="Subject"
                />
              </Field>
              <Field label="Type" error={err(i, 'type')}>
                <select value={v.type} onChange={(e) => update(v.uid, { type: e.target.value as VariableType })}>
                  {VARIABLE_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              </Field>
              <RolePicker variable={v} error={err(i, 'role')} onChange={(role) => update(v.uid, { role })} />
              <VariableLimits variable={v} index={i} errors={errors} onChange={(c) => update(v.uid, c)} />
              {v.type === 'text' ? (
                <Field label="Default value" error={err(i, 'default_value')}>
                  <input value={v.default_value} onChange={(e) => update(v.uid, { default_value: e.target.value })} />
                </Field>
              ) : v.type === 'captions' ? (
                <>
                  {fileSelect}
                  <Field
                    label="Default captions"
                    error={err(i, 'default_value')}
                    hint="SRT or WebVTT text (timing kept as in the file), or the storage key of a captions file."
                  >
                    <textarea
                      rows={3}
                      className="mono"
                      value={v.default_value}
                      onChange={(e) => update(v.uid, { default_value: e.target.value })}
                    />
                  </Field>
                </>
              ) : (
                fileSelect
              )}
              {v.type !== 'text' && v.type !== 'captions' ? (
                <Field label="Default (URL or storage key)">
                  <input
                    className="mono"
                    value={v.default_value}
                    onChange={(e) => update(v.uid, { default_value: e.target.value })}
                  />
                </Field>
              ) : null}
              <Field label="Placeholder" error={err(i, 'placeholder')}>
                <input value={v.placeholder} onChange={(e) => update(v.uid, { placeholder: e.target.value })} />
              </Field>
            </div>
            <div className="variable-footer">
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={v.required}
                  onChange={(e) => update(v.uid, { required: e.target.checked })}
                />
                Required
              </label>
              <span className="variable-moves">
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  aria-label={`Move up variable ${name}`}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                >
                  Move up
                </button>
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  aria-label={`Move down variable ${name}`}
                  disabled={i === variables.length - 1}
                  onClick={() => move(i, 1)}
                >
                  Move down
                </button>
                <button
                  type="button"
                  className="btn btn-ghost-danger btn-small"
                  aria-label={`Remove variable ${name}`}
                  onClick={() => onChange(variables.filter((x) => x.uid !== v.uid))}
                >
                  Remove
                </button>
              </span>
            </div>
          </div>
        );
      })}
      <button
        type="button"
        className="btn btn-secondary btn-small"
        onClick={() => onChange([...variables, emptyVariable()])}
      >
        + Add variable
      </button>
    </fieldset>
  );
}

/** A variable's default picked from the organization's stored files of its kind (the key goes into the value). */
function DefaultFileSelect({
  variable: v,
  files,
  error,
  onPick,
}: {
  variable: VariableDraft;
  files: UploadInfo[];
  error?: string;
  onPick: (key: string) => void;
}) {
  return (
    <Field
      label="Default file"
      error={v.type === 'captions' ? undefined : error}
      hint={
        v.type === 'captions'
          ? 'A stored captions file: its key becomes the default.'
          : 'A stored file, or type an http(s) URL or storage key below.'
      }
    >
      <select
        value={files.some((f) => f.s3_key === v.default_value) ? v.default_value : ''}
        onChange={(e) => onPick(e.target.value)}
      >
        <option value="">{files.length ? '(none)' : `(no stored ${v.type} files)`}</option>
        {files.map((f) => (
          <option key={f.s3_key} value={f.s3_key}>
            {f.file_name ?? f.s3_key}
          </option>
        ))}
      </select>
    </Field>
  );
}
