import { useState } from 'react';

/**
 * An action on one item of a list (delete, revoke, cancel…): which item it is running on, so only
 * that row's button shows busy, and the last failure, for a banner above the list. A new run clears
 * the old failure.
 */
export function useItemAction(action: (id: string) => Promise<unknown>) {
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (id: string) => {
    setBusyId(id);
    setError(null);
    try {
      await action(id);
    } catch (err) {
      setError(err);
    } finally {
      setBusyId(null);
    }
  };
  return { busyId, error, run };
}
