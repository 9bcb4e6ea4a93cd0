// The "Needs you" banner at the top of every screen (README "A person in the loop"): one line for each login of
// this window's organization that waits for the person, with Show the page (the login's live page in a panel of
// this window, LivePagePanel) and Cancel login; and a short polite word when one of them ends.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { PERSON_TASK } from '../../../shared/person-task.js';
import { ConfirmButton } from '../../components/ConfirmButton';
import { errorMessage } from '../../lib/api';
import { useAppStore } from '../../stores/app-store';
import type { WaitingLogin } from '../../stores/login-help.slice';
import { LIVE_PAGE_PANEL_ID, LivePagePanel } from './LivePagePanel';
import './needs-you.css';

export function NeedsYou() {
  const waiting = useAppStore((s) => s.waitingLogins);
  const shownId = useAppStore((s) => s.livePageLoginId);
  // A login started from the Sessions form shows its page in that form's progress panel (LoginProgress) instead.
  const shownHere = useAppStore((s) => s.livePagePlace === 'banner');
  const showLivePage = useAppStore((s) => s.showLivePage);
  const showButtons = useRef(new Map<string, HTMLButtonElement>());
  const dismissRef = useRef<HTMLButtonElement>(null);
  const shown = waiting.find((w) => w.loginId === shownId) ?? null;

  // A panel that went away with its login (it ended) while the focus was in it leaves the focus nowhere: it goes
  // to what the banner says now rather than back to the start of the page.
  const lastShown = useRef<string | null>(null);
  useEffect(() => {
    const before = lastShown.current;
    lastShown.current = shown?.loginId ?? null;
    if (!before || shown) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    (dismissRef.current ?? showButtons.current.values().next().value)?.focus();
  });

  const hide = (loginId: string) => {
    showButtons.current.get(loginId)?.focus();
    showLivePage(null);
  };

  return (
    <div className="needs-you">
      <LoginHelpNews dismissRef={dismissRef} />
      {waiting.length ? (
        <section className="needs-you-banner" aria-label="Needs you" data-testid="needs-you">
          <ul className="needs-you-list">
            {waiting.map((w) => (
              <NeedsYouLine
                key={w.loginId}
                login={w}
                open={w.loginId === shownId}
                buttonRef={(el) => {
                  if (el) showButtons.current.set(w.loginId, el);
                  else showButtons.current.delete(w.loginId);
                }}
                onToggle={() => (w.loginId === shownId ? showLivePage(null) : showLivePage(w.loginId))}
              />
            ))}
          </ul>
        </section>
      ) : null}
      {shown && shownHere ? (
        <LivePagePanel key={shown.loginId} login={shown} onHide={() => hide(shown.loginId)} />
      ) : null}
    </div>
  );
}

function NeedsYouLine({
  login,
  open,
  buttonRef,
  onToggle,
}: {
  login: WaitingLogin;
  open: boolean;
  buttonRef: (el: HTMLButtonElement | null) => void;
  onToggle: () => void;
}) {
  const cancelWaitingLogin = useAppStore((s) => s.cancelWaitingLogin);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      // The line goes when the login's end (login:finished) arrives.
      await cancelWaitingLogin(login.loginId);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };
  return (
    <li className="needs-you-line" data-testid="needs-you-line" data-login-id={login.loginId}>
      <span className="needs-you-mark" aria-hidden="true" />
      <p className="needs-you-text">
        <strong>{login.site}</strong> needs you: {PERSON_TASK[login.reason]}
      </p>
      <div className="needs-you-actions">
        <button
          ref={buttonRef}
          type="button"
          className={`btn btn-small ${open ? 'btn-secondary' : 'btn-primary'}`}
          aria-label={`${open ? 'Hide' : 'Show'} the page of ${login.site}`}
          aria-expanded={open}
          aria-controls={open ? LIVE_PAGE_PANEL_ID : undefined}
          onClick={onToggle}
        >
          {open ? 'Hide the page' : 'Show the page'}
        </button>
        <ConfirmButton
          label="Cancel login"
          confirmLabel="Yes, cancel"
          ariaLabel={`Cancel login on ${login.site}`}
          busy={busy}
          onConfirm={cancel}
        />
      </div>
      {error ? (
        <p className="needs-you-error" role="alert">
          Could not cancel: {error}
        </p>
      ) : null}
    </li>
  );
}

/**
 * The banner's live region: a login that arrived is said once to screen readers (the banner line shows it), one
 * that ended is said and shown until dismissed or until the next news.
 */
function LoginHelpNews({ dismissRef }: { dismissRef: RefObject<HTMLButtonElement | null> }) {
  const news = useAppStore((s) => s.loginHelpNews);
  const dismiss = useAppStore((s) => s.dismissLoginHelpNews);
  const shown = news?.shown ?? false;
  return (
    <div
      className={shown ? `needs-you-news needs-you-news-${news!.tone}` : 'needs-you-quiet'}
      data-testid="needs-you-news"
    >
      <p role="status" className={shown ? 'needs-you-news-text' : 'sr-only'}>
        {/* Keyed by its number: the same words again are a new text, announced again. */}
        {news ? <span key={news.seq}>{news.text}</span> : null}
      </p>
      {shown ? (
        <button ref={dismissRef} type="button" className="btn btn-secondary btn-small" onClick={dismiss}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}
