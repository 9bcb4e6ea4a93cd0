import { useEffect, useId, useRef, useState } from 'react';
import { MAX_ORIGINS } from '../../../shared/credentials.schema.js';

/**
 * The origins where the saved login's secrets may be typed: an editable list. Empty means the default, the
 * login page's origin (shown as such); adding one starts from that default so it is not lost by accident.
 */
export function OriginsEditor({
  origins,
  onChange,
  defaultOrigin,
  oauth,
  error,
}: {
  origins: string[];
  onChange: (origins: string[]) => void;
  defaultOrigin: string | null;
  /** An OAuth method: the identity provider's origins are added by default too. */
  oauth: boolean;
  error?: string | null;
}) {
  const id = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const [focusLast, setFocusLast] = useState(false);
  useEffect(() => {
    if (!focusLast) return;
    setFocusLast(false);
    const inputs = listRef.current?.querySelectorAll('input');
    inputs?.[inputs.length - 1]?.focus();
  }, [focusLast, origins.length]);

  const add = () => {
    onChange(origins.length === 0 && defaultOrigin ? [defaultOrigin, ''] : [...origins, '']);
    setFocusLast(true);
  };
  const set = (i: number, value: string) => onChange(origins.map((o, j) => (j === i ? value : o)));
  const remove = (i: number) => onChange(origins.filter((_, j) => j !== i));

  return (
    <fieldset
      className={`span-2 origins-editor sub-fieldset${error ? ' field-invalid' : ''}`}
      aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
      aria-invalid={error ? true : undefined}
      tabIndex={error ? -1 : undefined}
    >
      <legend className="label-text">Origins where the secrets may be typed</legend>
      <p className="field-hint" id={`${id}-hint`}>
        The login engine types this login’s secrets only on pages of these origins.
        {oauth ? ' For an OAuth login the identity provider’s origins are added by default.' : ''}
      </p>
      {origins.length === 0 ? (
        <p className="origins-default" data-testid="origins-default">
          {defaultOrigin ? (
            <>
              <code>{defaultOrigin}</code> <span className="muted">— the login page’s origin (default)</span>
            </>
          ) : (
            <span className="muted">The login page’s origin (enter its URL above).</span>
          )}
        </p>
      ) : (
        <ul className="origin-list" ref={listRef}>
          {origins.map((origin, i) => (
            <li key={i} className="origin-row">
              <input
                type="url"
                value={origin}
                aria-label={`Origin ${i + 1}`}
                placeholder="https://accounts.example.com"
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => set(i, e.target.value)}
              />
              <button
                type="button"
                className="btn btn-ghost-danger btn-small"
                aria-label={`Remove origin ${origin || i + 1}`}
                onClick={() => remove(i)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={add}
          disabled={origins.length >= MAX_ORIGINS}
        >
          Add an origin
        </button>
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
