import { ROLE_LABELS, ROLES_FOR_TYPE, roleOf } from '../../../shared/variable-roles.js';
import { Field } from '../../components/Field';
import type { VariableDraft } from './template-form-state';

/**
 * A variable's layout role for the local renderer (headline, subject picture, palette…): what the draft preview
 * draws it as. "Automatic" keeps the guess from the key and type (shown, so the person sees what the preview uses).
 */
export function RolePicker({
  variable: v,
  error,
  onChange,
}: {
  variable: VariableDraft;
  error?: string;
  onChange: (role: VariableDraft['role']) => void;
}) {
  const roles = ROLES_FOR_TYPE[v.type] ?? [];
  const guess = roleOf({ key: v.key, label: v.label, type: v.type });
  // A role that does not fit the type (the type changed) shows as automatic, as the renderer treats it.
  const value = v.role && roles.includes(v.role) ? v.role : '';
  // A row of its own: the role names are long, and a third of the row cut them off ("Headline (large ty").
  return (
    <div className="role-field">
      <Field label="Role in the local preview" error={error} hint="What the offline renderer draws it as.">
        <select value={value} onChange={(e) => onChange(e.target.value as VariableDraft['role'])}>
          <option value="">Automatic: {ROLE_LABELS[guess]}</option>
          {roles.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
