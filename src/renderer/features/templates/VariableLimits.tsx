import { VARIABLE_SLOTS } from '../../../shared/video.schema.js';
import { Field } from '../../components/Field';
import type { VariableDraft } from './template-form-state';

/** A text variable's length limits, or where a media variable goes in the model call (its slot). */
export function VariableLimits({
  variable: v,
  index: i,
  errors,
  onChange,
}: {
  variable: VariableDraft;
  index: number;
  errors: Record<string, string>;
  onChange: (change: Partial<VariableDraft>) => void;
}) {
  const err = (field: string) => errors[`input_variables.${i}.${field}`];
  if (v.type === 'captions') return null;
  if (v.type === 'text') {
    return (
      <>
        <Field label="Min length" error={err('min_length')}>
          <input
            type="number"
            min={0}
            value={v.min_length}
            onChange={(e) => onChange({ min_length: e.target.value })}
          />
        </Field>
        <Field label="Max length" error={err('max_length')}>
          <input
            type="number"
            min={1}
            value={v.max_length}
            onChange={(e) => onChange({ max_length: e.target.value })}
          />
        </Field>
      </>
    );
  }
  return (
    <Field label="Slot" error={err('slot')}>
      <select value={v.slot} onChange={(e) => onChange({ slot: e.target.value as VariableDraft['slot'] })}>
        <option value="">(none)</option>
        {VARIABLE_SLOTS.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </Field>
  );
}
