import { useEffect, useRef, useState } from 'react';
import type { SavedLogin } from '../../../shared/credentials.schema.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { CONFIRM_DELAY_MS } from '../../components/ConfirmButton';
import { useAppStore } from '../../stores/app-store';

/**
 * Delete, after a confirmation that says what it does: the secrets go, the sessions made from it stay but can
 * no longer be renewed. The confirm button waits a moment, so a double-click cannot pass both steps.
 */
export function DeleteSavedLogin({ saved, onDeleted }: { saved: SavedLogin; onDeleted: () => void }) {
  const remove = useAppStore((s) => s.deleteSavedLogin);
  const sessions = useAppStore((s) => s.sessions.data.filter((x) => x.credential_id === saved.id).length);
  const [asking, setAsking] = useState(false);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!asking) return;
    cancelRef.current?.focus();
    const t = setTimeout(() => setReady(true), CONFIRM_DELAY_MS);
    return () => {
      clearTimeout(t);
      setReady(false);
    };
  }, [asking]);

  const close = () => {
    setAsking(false);
    setError(null);
    // Back where the person was, not at the top of the page.
    setTimeout(() => openRef.current?.focus(), 0);
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await remove(saved.id);
      onDeleted();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  if (!asking) {
    return (
      <button ref={openRef} type="button" className="btn btn-ghost-danger btn-small" onClick={() => setAsking(true)}>
        Delete…
      </button>
    );
  }
  return (
    <div
      className="delete-confirm"
      role="group"
      aria-labelledby="delete-confirm-title"
      aria-describedby="delete-confirm-body"
      data-testid="delete-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <strong id="delete-confirm-title">Delete “{saved.label}”?</strong>
      <p id="delete-confirm-body">
        Its secrets are removed from this computer and agents can no longer log in with it.{' '}
        {sessions === 1
          ? 'The session made from it stays cached but can no longer be renewed.'
          : `${sessions > 1 ? `The ${sessions} sessions` : 'Sessions'} made from it stay cached but can no longer be renewed.`}
      </p>
      {error ? <ApiErrorBanner title="The saved login was not deleted" error={error} /> : null}
      <div className="form-actions">
        <button
          type="button"
          className="btn btn-danger btn-small"
          disabled={!ready || busy}
          onClick={() => void confirm()}
        >
          {busy ? 'Deleting…' : 'Delete saved login'}
        </button>
        <button ref={cancelRef} type="button" className="btn btn-secondary btn-small" onClick={close}>
          Cancel
        </button>
      </div>
    </div>
  );
}
