import { useId, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';

/** A labelled control with optional hint and error, wired for screen readers. */
export function Field({
  label,
  hint,
  error,
  children,
  required,
  aside,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
  aside?: ReactNode;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const control = cloneElement(children, {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
  });
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
        {aside ? <span className="field-aside">{aside}</span> : null}
      </div>
      {control}
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
