import { useEffect, useState } from 'react';
import type { SavedLogin } from '../../../shared/credentials.schema.js';
import { ErrorBanner, Spinner } from '../../components/StatusViews';
import { errorMessage, invoke } from '../../lib/api';
import { useScrollIntoView } from '../../lib/use-scroll-into-view';
import { useAppStore } from '../../stores/app-store';
import type { SavedLoginTest } from '../../stores/saved-logins.slice';
import { LoginSteps } from '../sessions/LoginSteps';
import { loginFailureWords } from '../../lib/login-failure-words';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const cookiesIn = (o: { cookies: number; ms: number }) =>
  `${o.cookies} cookie${o.cookies === 1 ? '' : 's'} in ${seconds(o.ms)}.`;

/** What a finished test says, in one sentence (also what the live region announces). */
function outcomeText(test: SavedLoginTest): string {
  const o = test.outcome;
  if (test.error) return `The test did not run: ${test.error}`;
  if (!o) return '';
  if (o.ok) return `Logged in: ${cookiesIn(o)}`;
  const words = loginFailureWords(o.code);
  return `${words.title}: ${o.message} What to do: ${words.next} (code ${o.code})`;
}

/**
 * Test now: a real login with the saved login, as the person at this machine, its steps live as the Sessions
 * screen shows them, then the outcome, scrolled into view and announced.
 */
export function TestNow({ saved }: { saved: SavedLogin }) {
  const test = useAppStore((s) => s.savedLoginTests[saved.id]);
  const start = useAppStore((s) => s.testSavedLogin);
  const running = test?.status === 'running';
  const [now, setNow] = useState(() => Date.now());
  const [cancelError, setCancelError] = useState<string | null>(null);
  const outcomeRef = useScrollIntoView<HTMLDivElement>(test && !running ? test.loginId : null);
  // A started test brings its live steps into view and takes focus there (the button it came from is disabled).
  const progressRef = useScrollIntoView<HTMLDivElement>(running ? test.loginId : null, { focus: true });

  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [running]);

  const cancel = async () => {
    if (!test) return;
    setCancelError(null);
    try {
      await invoke('sessions:cancelLogin', { params: { id: test.loginId } });
    } catch (err) {
      setCancelError(errorMessage(err));
    }
  };

  // No live step reached this window (e.g. it refused before starting): the steps the failure names.
  const failedSteps = test?.outcome && !test.outcome.ok && test.steps.length === 0 ? test.outcome.steps : [];
  return (
    <section className="card" aria-labelledby="test-now-title" data-testid="test-now">
      <div className="card-header">
        <h2 id="test-now-title">Test now</h2>
        <button
          type="button"
          className="btn btn-primary btn-small"
          disabled={running}
          onClick={() => {
            setCancelError(null);
            void start(saved.id);
          }}
        >
          {running ? 'Testing…' : test ? 'Test again' : 'Test now'}
        </button>
      </div>
      <p className="muted">
        Logs in with this saved login in a real browser, as you (sharing does not apply). The session it makes is cached
        like an agent’s, and the use is logged.
      </p>
      {test ? (
        <div
          ref={progressRef}
          tabIndex={-1}
          className="login-progress"
          role="region"
          aria-label="Test progress"
          data-testid="test-progress"
          data-login-id={test.loginId}
        >
          <div className="login-progress-head">
            {running ? <Spinner label="Logging in" /> : null}
            <strong>{running ? 'Logging in…' : 'Steps'}</strong>
            <span className="muted mono">{seconds((test.outcome?.ms ?? now - test.startedAt) || 0)}</span>
            {running ? (
              <button type="button" className="btn btn-ghost-danger btn-small" onClick={() => void cancel()}>
                Cancel test
              </button>
            ) : null}
          </div>
          {failedSteps.length ? (
            <ol className="issue-list" aria-label="Login steps">
              {failedSteps.map((step, i) => (
                <li key={i}>{step}</li>
              ))}
            </ol>
          ) : (
            <LoginSteps steps={test.steps} live={running} />
          )}
        </div>
      ) : null}
      {cancelError ? <ErrorBanner title="Could not cancel" message={cancelError} /> : null}
      {test && !running ? (
        <div ref={outcomeRef} data-testid="test-outcome" data-ok={test.outcome?.ok ? 'true' : 'false'}>
          {test.outcome?.ok ? (
            <div className="banner banner-success">
              <div>
                <strong>Logged in</strong>
                <p>{cookiesIn(test.outcome)} The session is listed under “Sessions made from it”.</p>
              </div>
            </div>
          ) : (
            // Announced at once where the test was started (the polite live region below says success only).
            <div className="banner banner-error" role="alert">
              <div>
                <strong>{test.error ? 'The test did not run' : 'The login failed'}</strong>
                <p>{outcomeText(test)}</p>
              </div>
            </div>
          )}
        </div>
      ) : null}
      <p className="sr-only" aria-live="polite" data-testid="test-announcement">
        {test && !running && test.outcome?.ok ? outcomeText(test) : ''}
      </p>
    </section>
  );
}
