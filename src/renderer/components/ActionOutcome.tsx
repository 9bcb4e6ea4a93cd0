// The outcome of a form's last action, said where the action was and focused, so it is in view and read out
// (Settings' forms).
import { useEffect, useRef } from 'react';
import { ErrorBanner, Notice } from './StatusViews';

export type Outcome = { text: string; bad: boolean } | null;

/** The outcome of the form's last action; it takes the focus each time it changes. */
export function ActionOutcome({
  outcome,
  errorTitle,
  testId,
}: {
  outcome: Outcome;
  errorTitle: string;
  testId: string;
}) {
  const said = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (outcome) said.current?.focus();
  }, [outcome]);
  return (
    <div ref={said} tabIndex={-1} data-testid={testId}>
      {outcome ? (
        outcome.bad ? (
          <ErrorBanner title={errorTitle} message={outcome.text} />
        ) : (
          <Notice tone="success">{outcome.text}</Notice>
        )
      ) : null}
    </div>
  );
}
