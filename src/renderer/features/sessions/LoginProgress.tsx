import { useEffect, useState } from 'react';
import { ErrorBanner, Spinner } from '../../components/StatusViews';
import { errorMessage } from '../../lib/api';
import { useAppStore } from '../../stores/app-store';
import { LoginSteps } from './LoginSteps';

/** The running login of the form: its steps as they happen, the time so far, and Cancel. */
export function LoginProgress() {
  const run = useAppStore((s) => s.loginRun);
  const cancelLogin = useAppStore((s) => s.cancelLogin);
  const [now, setNow] = useState(() => Date.now());
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const running = run?.status === 'running';

  // A ticking clock only while a login runs.
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [running]);
  useEffect(() => {
    if (!running) setCancelling(false);
  }, [running]);

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
  return (
    <div className="login-progress" data-testid="login-progress" data-login-id={run.loginId}>
      <div className="login-progress-head">
        {running ? <Spinner label="Logging in" /> : null}
        <strong>{running ? 'Logging in…' : run.status === 'cancelled' ? 'Login cancelled' : 'Login stopped'}</strong>
        <span className="muted mono" data-testid="login-elapsed">
          {elapsed.toFixed(1)} s
        </span>
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
      <LoginSteps steps={run.steps} live={running} />
      {cancelError ? <ErrorBanner title="Could not cancel" message={cancelError} /> : null}
    </div>
  );
}
