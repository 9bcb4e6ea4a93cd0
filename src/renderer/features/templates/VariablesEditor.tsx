import { VARIABLE_SLOTS, VARIABLE_TYPES, type VariableType } from '../../../shared/video.schema.js';
import { Field } from '../../components/Field';
import { emptyVariable, type VariableDraft } from './template-form-state';

export function VariablesEditor({
  variables,
  errors,
  onChange,
}: {
  variables: VariableDraft[];
  errors: Record<string, string>;
  onChange: (vars: VariableDraft[]) => void;
}) {
  const update = (uid: string, change: Partial<VariableDraft>) =>
    onChange(variables.map((v) => (v.uid === uid ? { ...v, ...change } : v)));
  const err = (i: number, field: string) => errors[`input_variables.${i}.${field}`];
  return (
    <fieldset className="variables-editor">
      <legend>Input variables</legend>
      {errors.input_variables ? <p className="field-error">{errors.input_variables}</p> : null}
      {variables.length === 0 ? <p className="muted">No variables: the template takes no input.</p> : null}
      {variables.map((v, i) => (
        <div className="variable-card" key={v.uid} role="group" aria-label={`Variable ${i + 1}`}>
          <div className="variable-grid">
            <Field label="Key" required error={err(i, 'key')}>
              <input
                className="mono"
                value={v.key}
                onChange={(e) => update(v.uid, { key: e.target.value })}
                placeholder="subject"
              />
            </Field>
            <Field label="Label" required error={err(i, 'label')}>
              <input value={v.label} onChange={(e) => update(v.uid, { label: e.target.value })} placeholder="Subject" />
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
            {v.type === 'text' ? (
              <>
                <Field label="Min length" error={err(i, 'min_length')}>
                  <input
                    type="number"
                    min={0}
                    value={v.min_length}
                    onChange={(e) => update(v.uid, { min_length: e.target.value })}
                  />
                </Field>
                <Field label="Max length" error={err(i, 'max_length')}>
                  <input
                    type="number"
                    min={1}
                    value={v.max_length}
                    onChange={(e) => update(v.uid, { max_length: e.target.value })}
                  />
                </Field>
              </>
            ) : (
              <Field label="Slot" error={err(i, 'slot')}>
                <select
                  value={v.slot}
                  onChange={(e) => update(v.uid, { slot: e.target.value as VariableDraft['slot'] })}
                >
                  <option value="">(none)</option>
                  {VARIABLE_SLOTS.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </Field>
            )}
            <Field
              label={v.type === 'text' ? 'Default value' : 'Default (URL or storage key)'}
              error={err(i, 'default_value')}
            >
              <input value={v.default_value} onChange={(e) => update(v.uid, { default_value: e.target.value })} />
            </Field>
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
            <button
              type="button"
              className="btn btn-ghost-danger btn-small"
              aria-label={`Remove variable ${v.key || i + 1}`}
              onClick={() => onChange(variables.filter((x) => x.uid !== v.uid))}
            >
              Remove
            </button>
          </div>
        </div>
      ))}
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
