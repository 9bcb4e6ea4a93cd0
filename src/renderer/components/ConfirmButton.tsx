import { useEffect, useState } from 'react';

/** A destructive action in two clicks: the first asks, the second does it (and it resets after 4 s). */
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
  useEffect(() => {
    if (!armed) return;
    const t = setTimeout(() => setArmed(false), 4000);
    return () => clearTimeout(t);
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
      disabled={busy}
      onClick={async () => {
        setArmed(false);
        await onConfirm();
      }}
    >
      {busy ? 'Working…' : confirmLabel}
    </button>
  );
}
