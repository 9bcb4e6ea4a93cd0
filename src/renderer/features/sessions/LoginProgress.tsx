import { useEffect, useRef, useState } from 'react';
import { PERSON_TASK } from '../../../shared/person-task.js';
import { ErrorBanner, Spinner } from '../../components/StatusViews';
import { errorMessage } from '../../lib/api';
import { bringIntoView } from '../../lib/use-scroll-into-view';
import { useAppStore } from '../../stores/app-store';
import { LivePagePanel } from '../needs-you/LivePagePanel';
import { LoginSteps } from './LoginSteps';

/**
 * The running login of the form: its steps as they happen, the time so far, and Cancel. A login that stopped for the
 * person (a CAPTCHA, a code only they can give) says so here, where they started it, with its page a click away: a
 * spinner and "Logging in…" would claim the engine is still at work while it waits for them.
 */
export function LoginProgress() {
  const run = useAppStore((s) => s.loginRun);
  const cancelLogin = useAppStore((s) => s.cancelLogin);
  const waiting = useAppStore((s) => s.waitingLogins.find((w) => w.loginId === run?.loginId) ?? null);
  const pageShown = useAppStore((s) => s.livePageLoginId === run?.loginId && s.livePagePlace === 'login-form');
  const showLivePage = useAppStore((s) => s.showLivePage);
  const [now, setNow] = useState(() => Date.now());
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const showRef = useRef<HTMLButtonElement>(null);
  const running = run?.status === 'running';
  const needsYou = running && waiting !== null;

  // A ticking clock only while a login runs.
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [running]);
  useEffect(() => {
    if (!running) setCancelling(false);
  }, [running]);
  // The moment it stops for the person, what they must do comes into view; the focus follows unless they are busy
  // elsewhere (a login they just started leaves it on the page or in this form).
  useEffect(() => {
    if (!needsYou) return;
    const button = showRef.current;
    if (!button) return;
    bringIntoView(button);
    const active = document.activeElement;
    const form = button.closest('[role="region"]');
    if (!active || active === document.body || form?.contains(active)) button.focus({ preventScroll: true });
  }, [needsYou]);

  if (!run || run.status === 'succeeded') return null;
  const elapsed = (run.durationMs ?? now - run.startedAt) / 1000;
  const cancel = async () => {
    setCancelling(true);
    setCancelError(null);
    try {
      await cancelLogin();
    } catch (err) {
      setCancelling(false);
      setCancelError(errorMessage(err));
    }
  };
  const title = needsYou
    ? `Needs you: ${PERSON_TASK[waiting.reason]}`
    : running
      ? 'Logging in…'
      : run.status === 'cancelled'
        ? 'Login cancelled'
        : 'Login stopped';
  return (
    <div
      className={`login-progress${needsYou ? ' login-progress-needs-you' : ''}`}
      data-testid="login-progress"
      data-login-id={run.loginId}
    >
      <div className="login-progress-head">
        {needsYou ? (
          <span className="needs-you-mark" aria-hidden="true" />
        ) : running ? (
          <Spinner label="Logging in" />
        ) : null}
        <strong>{title}</strong>
        <span className="muted mono" data-testid="login-elapsed">
          {elapsed.toFixed(1)} s
        </span>
        {needsYou ? (
          <button
            ref={showRef}
            type="button"
            className={`btn btn-small ${pageShown ? 'btn-secondary' : 'btn-primary'}`}
            aria-expanded={pageShown}
            onClick={() => showLivePage(pageShown ? null : run.loginId, 'login-form')}
          >
            {pageShown ? 'Hide the page' : 'Show the page'}
          </button>
        ) : null}
        {running ? (
          <button
            type="button"
            className="btn btn-ghost-danger btn-small"
            onClick={() => void cancel()}
            disabled={cancelling}
          >
            {cancelling ? 'Cancelling…' : 'Cancel login'}
          </button>
        ) : null}
      </div>
      {needsYou && pageShown ? (
        <LivePagePanel
          key={waiting.loginId}
          login={waiting}
          onHide={() => {
            showRef.current?.focus();
            showLivePage(null);
          }}
        />
      ) : null}
      <LoginSteps steps={run.steps} live={running} />
      {cancelError ? <ErrorBanner title="Could not cancel" message={cancelError} /> : null}
    </div>
  );
}
