import { useId, useState, type ReactNode } from 'react';
import { SecretInput, SecretTextArea } from './SecretInput';

/**
 * A write-only secret of the form: what the person types (masked, with Show for a password), and on edit the
 * saved one's state instead of its value: "Saved — leave empty to keep", and Remove (sent as null on save).
 * Laid out as Field is (same classes), with the Show toggle and Remove beside the control.
 */
export function SecretField({
  label,
  value,
  onChange,
  saved,
  removed,
  onRemovedChange,
  error,
  hint,
  required,
  multiline = false,
  maskable = true,
  extra,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Edit only: the saved login holds this secret. */
  saved: boolean;
  removed: boolean;
  onRemovedChange: (removed: boolean) => void;
  error?: string | null;
  hint?: ReactNode;
  required?: boolean;
  multiline?: boolean;
  /** A masked input with a Show toggle (passwords, secrets); notes are a plain text area. */
  maskable?: boolean;
  /** More under the control (the TOTP field's QR code reader). */
  extra?: ReactNode;
  testId?: string;
}) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const stateId = `${id}-state`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [saved ? stateId : undefined, hintId, errorId].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    value: removed ? '' : value,
    onValue: onChange,
    disabled: removed,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    autoComplete: 'off',
    spellCheck: false,
    placeholder: saved && !removed ? 'Saved — leave empty to keep' : undefined,
    'data-testid': testId,
  };
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <div className="field-label-row">
        <label htmlFor={id}>
          {label}
          {required ? (
            <span className="required" aria-hidden="true">
              {' '}
              *
            </span>
          ) : null}
        </label>
      </div>
      <div className="secret-input-row">
        {multiline ? (
          <SecretTextArea rows={3} {...common} />
        ) : (
          <SecretInput type={maskable && !shown ? 'password' : 'text'} {...common} />
        )}
        {maskable && !multiline && !removed ? (
          <button
            type="button"
            className="btn btn-secondary btn-small"
            aria-controls={id}
            aria-label={`${shown ? 'Hide' : 'Show'} ${label.toLowerCase()}`}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? 'Hide' : 'Show'}
          </button>
        ) : null}
      </div>
      {saved ? (
        <div className="secret-state">
          <p id={stateId} className={removed ? 'secret-removed' : 'muted'}>
            {removed
              ? 'Will be removed when you save.'
              : value
                ? 'Saved — what you typed replaces it.'
                : 'Saved — leave empty to keep.'}
          </p>
          <button
            type="button"
            className={`btn btn-small ${removed ? 'btn-secondary' : 'btn-ghost-danger'}`}
            aria-label={
              removed ? `Keep it: the saved ${label.toLowerCase()}` : `Remove the saved ${label.toLowerCase()}`
            }
            onClick={() => onRemovedChange(!removed)}
          >
            {removed ? 'Keep it' : 'Remove'}
          </button>
        </div>
      ) : null}
      {extra}
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
