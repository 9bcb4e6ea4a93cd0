import { useEffect, useState } from 'react';

/** The confirm button accepts a click only after this long: a double-click cannot pass both steps. */
export const CONFIRM_DELAY_MS = 500;

/**
 * A destructive action in two clicks: the first asks, the second does it (and it resets after 4 s).
 * The second button stays disabled for CONFIRM_DELAY_MS, so the second click of a double-click lands
 * on nothing.
 */
export function ConfirmButton({
  label,
  confirmLabel = 'Confirm',
  onConfirm,
  busy = false,
  ariaLabel,
  small = true,
}: {
  label: string;
  confirmLabel?: string;
  onConfirm: () => void | Promise<void>;
  busy?: boolean;
  ariaLabel?: string;
  small?: boolean;
}) {
  const [armed, setArmed] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!armed) return;
    const enable = setTimeout(() => setReady(true), CONFIRM_DELAY_MS);
    const reset = setTimeout(() => setArmed(false), 4000);
    return () => {
      clearTimeout(enable);
      clearTimeout(reset);
      setReady(false);
    };
  }, [armed]);
  const size = small ? ' btn-small' : '';
  if (!armed) {
    return (
      <button
        type="button"
        className={`btn btn-ghost-danger${size}`}
        aria-label={ariaLabel}
        onClick={() => setArmed(true)}
        disabled={busy}
      >
        {label}
      </button>
    );
  }
  return (
    <button
      type="button"
      className={`btn btn-danger${size}`}
      aria-label={ariaLabel ? `${confirmLabel}: ${ariaLabel}` : confirmLabel}
      disabled={busy || !ready}
      onClick={async () => {
        if (!ready) return;
        setArmed(false);
        await onConfirm();
      }}
    >
      {busy ? 'Working…' : confirmLabel}
    </button>
  );
}
