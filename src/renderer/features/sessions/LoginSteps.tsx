import type { LoginStep } from '../../stores/login-runs.slice';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What the login engine did, in order, each with the time since the login started. */
export function LoginSteps({ steps, live = false }: { steps: LoginStep[]; live?: boolean }) {
  if (steps.length === 0) {
    return <p className="muted">{live ? 'Starting…' : 'No steps were reported for this login.'}</p>;
  }
  return (
    // It scrolls once the steps outgrow it (240 px): focusable, so a keyboard can scroll it too (axe
    // scrollable-region-focusable: at 320 px a long trace was out of the keyboard's reach).
    <ol className="login-steps" aria-label="Login steps" aria-live={live ? 'polite' : undefined} tabIndex={0}>
      {steps.map((s, i) => (
        <li key={i} data-testid="login-step">
          <span className="login-step-time mono">{seconds(s.elapsedMs)}</span>
          <span className="login-step-text">{s.step}</span>
        </li>
      ))}
    </ol>
  );
}
