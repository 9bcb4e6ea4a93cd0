import { useEffect, useRef, useState } from 'react';
import { CONFIRM_DELAY_MS } from '../../components/ConfirmButton';

/**
 * Asked before an edit that lets a saved login's secrets be typed somewhere new (docs/saved-logins.md#who-may-move-a-secret):
 * the next login with it — by any key it is shared with, a health check, Test now — types them there, so moving them
 * is as good as reading them. An API key cannot make this change without sending the secrets; the person can, once
 * they said yes here. The confirm button waits a moment, so a double-click on Save cannot pass both steps.
 */
export function MoveConfirm({
  label,
  places,
  busy,
  onConfirm,
  onCancel,
}: {
  label: string;
  places: string[];
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const [ready, setReady] = useState(false);
  const backRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    backRef.current?.focus();
    const t = setTimeout(() => setReady(true), CONFIRM_DELAY_MS);
    return () => clearTimeout(t);
  }, []);

  return (
    <div
      className="move-confirm span-2"
      role="group"
      aria-labelledby="move-confirm-title"
      aria-describedby="move-confirm-body"
      data-testid="move-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <strong id="move-confirm-title">Type the secrets of “{label}” somewhere new?</strong>
      <div id="move-confirm-body">
        <p>
          From now on its password and other secrets may be typed on {places.length === 1 ? 'this site' : 'these sites'}
          , by every login with it (agents it is shared with, health checks, Test now):
        </p>
        <ul className="move-confirm-places">
          {places.map((p) => (
            <li key={p}>
              <code>{p}</code>
            </li>
          ))}
        </ul>
        <p>Confirm only if they belong to the same account. An API key cannot make this change without the secrets.</p>
      </div>
      <div className="form-actions">
        <button type="button" className="btn btn-danger btn-small" disabled={!ready || busy} onClick={onConfirm}>
          {busy ? 'Saving…' : 'Allow and save'}
        </button>
        <button ref={backRef} type="button" className="btn btn-secondary btn-small" onClick={onCancel}>
          Back to the form
        </button>
      </div>
    </div>
  );
}
