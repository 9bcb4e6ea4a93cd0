import { useEffect, useRef, useState } from 'react';

/** The confirm button accepts a click only after this long: a double-click cannot pass both steps. */
export const CONFIRM_DELAY_MS = 500;

/**
 * A destructive action in two steps: the first click asks, in words, beside the button ("Cancel login on x?") with
 * the confirm button focused and a way back ("No", or Escape). The question stays until the person answers: an
 * earlier version quietly went back after 4 s, so a person who read the question first found their click did nothing.
 * The confirm button is inert for CONFIRM_DELAY_MS (aria-disabled, so it keeps focus), so the second click of a
 * double-click lands on nothing.
 */
export function ConfirmButton({
  label,
  confirmLabel = 'Confirm',
  question,
  onConfirm,
  busy = false,
  ariaLabel,
  small = true,
}: {
  label: string;
  confirmLabel?: string;
  /** What is asked once armed; by default the action's name with a question mark ("Delete character Ada?"). */
  question?: string;
  onConfirm: () => void | Promise<void>;
  busy?: boolean;
  ariaLabel?: string;
  small?: boolean;
}) {
  const [armed, setArmed] = useState(false);
  const [ready, setReady] = useState(false);
  const askRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const groupRef = useRef<HTMLSpanElement>(null);
  const backToAsk = useRef(false);
  useEffect(() => {
    if (!armed) {
      if (backToAsk.current) askRef.current?.focus();
      backToAsk.current = false;
      return;
    }
    confirmRef.current?.focus();
    const enable = setTimeout(() => {
      setReady(true);
      // The second click of a double-click may have landed on the question's text and given focus to what holds it
      // (the page, a scrollable table): it comes back to the confirm button, not to whatever the person chose since.
      const group = groupRef.current;
      if (group && document.activeElement?.contains(group)) confirmRef.current?.focus();
    }, CONFIRM_DELAY_MS);
    return () => {
      clearTimeout(enable);
      setReady(false);
    };
  }, [armed]);
  const size = small ? ' btn-small' : '';
  if (!armed) {
    return (
      <button
        ref={askRef}
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
  const asked = question ?? `${ariaLabel ?? label}?`;
  const goBack = () => {
    backToAsk.current = true;
    setArmed(false);
  };
  const inert = busy || !ready;
  return (
    <span
      ref={groupRef}
      className="confirm-ask"
      role="group"
      aria-label={asked}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        goBack();
      }}
    >
      <span className="confirm-question">{asked}</span>
      <button
        ref={confirmRef}
        type="button"
        className={`btn btn-danger${size}`}
        aria-label={ariaLabel ? `${confirmLabel}: ${ariaLabel}` : confirmLabel}
        aria-disabled={inert}
        onClick={async () => {
          if (inert) return;
          setArmed(false);
          await onConfirm();
        }}
      >
        {busy ? 'Working…' : confirmLabel}
      </button>
      <button type="button" className={`btn btn-secondary${size}`} onClick={goBack}>
        No
      </button>
    </span>
  );
}
