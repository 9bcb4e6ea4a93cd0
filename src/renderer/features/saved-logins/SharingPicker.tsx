import { useId } from 'react';
import type { ApiKeySummary } from '../../../shared/ipc-contract.js';
import { Loading } from '../../components/StatusViews';
import type { Loadable } from '../../stores/loadable';

/**
 * Which API keys may log in with the saved login: every key of the organization, or the ones chosen here (by
 * name and prefix). This app's own Test now is the person's and is not limited by it.
 */
export function SharingPicker({
  share,
  keyIds,
  keys,
  onRetry,
  onChange,
  error,
}: {
  share: 'all' | 'chosen';
  keyIds: string[];
  keys: Loadable<ApiKeySummary[]>;
  onRetry: () => void;
  onChange: (share: 'all' | 'chosen', keyIds: string[]) => void;
  error?: string | null;
}) {
  const id = useId();
  const now = Date.now();
  // Keys that still work, and any chosen key that no longer does (so it can be unticked).
  const offered = keys.data.filter(
    (k) => keyIds.includes(k.id) || (k.revoked_at === null && (k.expires_at === null || k.expires_at > now)),
  );
  const toggle = (keyId: string, on: boolean) =>
    onChange('chosen', on ? [...keyIds, keyId] : keyIds.filter((k) => k !== keyId));

  return (
    <fieldset
      className={`span-2 choice-group sharing-picker${error ? ' field-invalid' : ''}`}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `${id}-error` : undefined}
      tabIndex={error ? -1 : undefined}
    >
      <legend className="label-text">Who may use it</legend>
      <label className="choice">
        <input type="radio" name={`${id}-share`} checked={share === 'all'} onChange={() => onChange('all', keyIds)} />
        <span>
          <span className="choice-label">All keys of the organization</span>
          <span className="choice-hint">Every API key with login:write may log in with it, now and later.</span>
        </span>
      </label>
      <label className="choice">
        <input
          type="radio"
          name={`${id}-share`}
          checked={share === 'chosen'}
          onChange={() => onChange('chosen', keyIds)}
        />
        <span>
          <span className="choice-label">Only the keys I choose</span>
          <span className="choice-hint">No key chosen: only this app may use it.</span>
        </span>
      </label>
      {share === 'chosen' ? (
        <div className="key-picker" role="group" aria-label="Keys that may use it">
          {keys.status === 'loading' && keys.data.length === 0 ? <Loading label="Loading the keys…" /> : null}
          {keys.status === 'error' ? (
            <p className="field-error">
              The keys could not be read: {keys.error}{' '}
              <button type="button" className="btn btn-secondary btn-small" onClick={onRetry}>
                Retry
              </button>
            </p>
          ) : null}
          {keys.status === 'ready' && offered.length === 0 ? (
            <p className="muted">This organization has no working API key yet (create one in Settings).</p>
          ) : null}
          {offered.map((k) => (
            <label key={k.id} className="checkbox key-choice">
              <input type="checkbox" checked={keyIds.includes(k.id)} onChange={(e) => toggle(k.id, e.target.checked)} />
              <span>
                {k.name || 'Unnamed key'} <code className="muted">{k.prefix}…</code>
                {k.desktop ? <span className="muted"> · this window’s key</span> : null}
                {k.revoked_at !== null ? <span className="error-text"> · revoked</span> : null}
              </span>
            </label>
          ))}
        </div>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
