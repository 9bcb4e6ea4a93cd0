import { useState } from 'react';
import type { SavedLogin } from '../../../shared/credentials.schema.js';
import { errorMessage, invoke } from '../../lib/api';
import { formatDate } from '../../lib/format';

/**
 * A saved login's passkeys (metadata only) and Export: the private keys go from the vault straight to a file the
 * person picks (mode 0600), never through the page.
 */
export function PasskeysExport({ saved }: { saved: SavedLogin }) {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; bad: boolean } | null>(null);
  if (saved.passkeys.length === 0) return null;
  const exportNow = async () => {
    setBusy(true);
    setSaid(null);
    try {
      const out = await invoke('credentials:exportPasskeys', { id: saved.id });
      if (out.saved)
        setSaid({ text: `${out.count} passkey${out.count === 1 ? '' : 's'} saved to ${out.name}.`, bad: false });
    } catch (err) {
      setSaid({ text: `Not exported: ${errorMessage(err)}`, bad: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h3>Passkeys</h3>
      <ul className="plain-list" data-testid="saved-login-passkeys">
        {saved.passkeys.map((p) => (
          <li key={p.credential_id}>
            <span className="mono">{p.rp_id}</span> <span className="muted">created {formatDate(p.created_at)}</span>
          </li>
        ))}
      </ul>
      <p>
        <button type="button" className="btn btn-secondary btn-small" disabled={busy} onClick={() => void exportNow()}>
          Export passkeys…
        </button>{' '}
        <span role="status" className={said?.bad ? 'field-error' : 'muted'}>
          {said?.text ?? ''}
        </span>
      </p>
      <p className="muted">
        The file holds the private keys: keep it as safe as a password export (format:
        docs/own-browsers-and-passkeys.md#export).
      </p>
    </>
  );
}
