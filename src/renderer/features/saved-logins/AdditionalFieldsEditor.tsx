import { useEffect, useId, useRef, useState } from 'react';
import type { FieldRow } from './saved-login-form-state';
import { SecretInput } from './SecretInput';

/**
 * Extra fields of the site's form (name = value), e.g. a company or a PIN. The values are secrets: masked,
 * never pre-filled. On edit the saved names are listed with empty values: left so, the saved values stay.
 */
export function AdditionalFieldsEditor({
  rows,
  onChange,
  savedNames,
  removed,
  onRemovedChange,
  error,
}: {
  rows: FieldRow[];
  onChange: (rows: FieldRow[]) => void;
  /** Edit only: the names of the saved fields (their values are never shown). */
  savedNames: string[];
  removed: boolean;
  onRemovedChange: (removed: boolean) => void;
  error?: string | null;
}) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const [focusLast, setFocusLast] = useState(false);
  useEffect(() => {
    if (!focusLast) return;
    setFocusLast(false);
    listRef.current?.querySelector<HTMLInputElement>('li:last-child input')?.focus();
  }, [focusLast, rows.length]);

  const set = (i: number, change: Partial<FieldRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const saved = savedNames.length > 0;
  const describedBy = [`${id}-hint`, saved ? `${id}-state` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');

  return (
    <fieldset
      className={`span-2 sub-fieldset${error ? ' field-invalid' : ''}`}
      aria-describedby={describedBy}
      aria-invalid={error ? true : undefined}
      tabIndex={error ? -1 : undefined}
    >
      <legend className="label-text">Additional fields</legend>
      <p className="field-hint" id={`${id}-hint`}>
        Other fields the site’s form asks for, by their name (e.g. <code>company</code> or <code>pin</code>). The values
        are kept as secrets.
      </p>
      {saved ? (
        <div className="secret-state">
          <p id={`${id}-state`} className={removed ? 'secret-removed' : 'muted'}>
            {removed
              ? 'The saved fields will be removed when you save.'
              : `Saved: ${savedNames.join(', ')} — leave the values empty to keep them.`}
          </p>
          <button
            type="button"
            className={`btn btn-small ${removed ? 'btn-secondary' : 'btn-ghost-danger'}`}
            aria-label={removed ? 'Keep the saved additional fields' : 'Remove the saved additional fields'}
            onClick={() => onRemovedChange(!removed)}
          >
            {removed ? 'Keep them' : 'Remove'}
          </button>
        </div>
      ) : null}
      {removed ? null : (
        <>
          {rows.length ? (
            <ul className="field-rows" ref={listRef}>
              {rows.map((row, i) => {
                const name = row.name.trim() || `field ${i + 1}`;
                return (
                  <li key={i} className="field-row">
                    <input
                      value={row.name}
                      aria-label={`Name of field ${i + 1}`}
                      placeholder="name"
                      spellCheck={false}
                      autoComplete="off"
                      onChange={(e) => set(i, { name: e.target.value })}
                    />
                    <SecretInput
                      type={shown ? 'text' : 'password'}
                      value={row.value}
                      onValue={(value) => set(i, { value })}
                      aria-label={`Value of ${name}`}
                      placeholder={saved && savedNames.includes(row.name) ? 'Saved — leave empty to keep' : 'value'}
                      spellCheck={false}
                      autoComplete="off"
                    />
                    <button
                      type="button"
                      className="btn btn-ghost-danger btn-small"
                      aria-label={`Remove ${name}`}
                      onClick={() => onChange(rows.filter((_, j) => j !== i))}
                    >
                      Remove
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : null}
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-secondary btn-small"
              onClick={() => {
                onChange([...rows, { name: '', value: '' }]);
                setFocusLast(true);
              }}
            >
              Add a field
            </button>
            {rows.length ? (
              <button type="button" className="btn btn-secondary btn-small" onClick={() => setShown((s) => !s)}>
                {shown ? 'Hide values' : 'Show values'}
              </button>
            ) : null}
          </div>
        </>
      )}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
