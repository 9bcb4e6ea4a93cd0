import { useState } from 'react';
import type { Generation } from '../../../shared/ipc-contract.js';
import { useAppStore } from '../../stores/app-store';

/**
 * "Retry" (failed or canceled) or "Regenerate" (completed): the same template with the same inputs,
 * one video, charged like any generation. The new one is selected so its progress shows.
 */
export function RegenerateButton({
  generation: g,
  onError,
  small = true,
}: {
  generation: Generation;
  onError: (err: unknown) => void;
  small?: boolean;
}) {
  const regenerate = useAppStore((s) => s.regenerate);
  const select = useAppStore((s) => s.selectGeneration);
  const [busy, setBusy] = useState(false);
  const label = g.status === 'completed' ? 'Regenerate' : 'Retry';
  const go = async () => {
    setBusy(true);
    onError(null);
    try {
      const res = await regenerate(g);
      select(res.generations[0]?.generation_id ?? null);
    } catch (err) {
      onError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className={`btn btn-secondary${small ? ' btn-small' : ''}`}
      onClick={() => void go()}
      disabled={busy}
      aria-label={`${label} ${g.id}`}
    >
      {busy ? 'Starting…' : label}
    </button>
  );
}
