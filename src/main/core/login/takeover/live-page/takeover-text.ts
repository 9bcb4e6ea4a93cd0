/**
 * The words of the takeover page: instructions, countdown, who controls the page, the outcome. Like
 * takeover-protocol.ts, each function is self-contained: the page script is built from their toString().
 */
import type { TakeoverOutcome } from './takeover-protocol.js';

/** What the person should do: the server's instructions, or a default for the reason. */
export function instructionsFor(reason: string, instructions: string | undefined): string {
  const given = typeof instructions === 'string' ? instructions.trim() : '';
  if (given) return given;
  if (reason === 'captcha_blocked') return 'Solve the CAPTCHA, then sign in.';
  if (reason === 'bot_detected') return 'The site refused the automated browser: sign in on the page, then press Done.';
  if (reason === 'mfa_required') return 'Enter the code, then continue.';
  if (reason === 'login_form_not_found') return 'Sign in on the page, then press Done.';
  return 'Finish signing in on the page, then press Done.';
}

/** Time left as mm:ss (whole seconds, rounded up, so 0:00 means the time is up). */
export function formatCountdown(ms: number): string {
  const s = ms > 0 ? Math.ceil(ms / 1000) : 0;
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * What a polite live region should say as the time runs from `prevMs` to `ms` left: once a minute
 * (as a whole minute is crossed) and at 30 seconds, never every second. Null: say nothing.
 */
export function countdownAnnouncement(prevMs: number | null, ms: number): string | null {
  if (prevMs === null || !(ms < prevMs) || ms <= 0) return null;
  if (prevMs > 30_000 && ms <= 30_000) return '30 seconds left.';
  if (Math.ceil(ms / 60_000) < Math.ceil(prevMs / 60_000)) {
    const minutes = Math.max(1, Math.round(ms / 60_000));
    return `${minutes} minute${minutes === 1 ? '' : 's'} left.`;
  }
  return null;
}

/** Whether this viewer controls the page, and how many others watch. */
export function viewerStateText(controller: boolean, viewers: number): string {
  const watching = Math.max(0, (Number(viewers) || 1) - 1);
  if (controller) return watching > 0 ? `You control this page · ${watching} watching` : 'You control this page';
  return `Watching — someone else controls it${watching > 1 ? ` · ${watching} watching` : ''}`;
}

/**
 * The outcome in plain words: a headline and what to do now. The server's message is the detail, without
 * a repeat of the headline ("Cancelled: the login…" under "Cancelled." says "The login…"), and it always
 * ends by saying the tab can be closed.
 */
export function outcomeText(outcome: TakeoverOutcome | string, message: string): { title: string; detail: string } {
  const pick = (title: string, fallback: string) => {
    let detail = typeof message === 'string' ? message.trim() : '';
    const head = title.replace(/[.:]+$/, '').toLowerCase();
    if (detail.toLowerCase().startsWith(head)) {
      const rest = detail.slice(head.length).replace(/^[\s.:;,—–-]+/, '');
      detail = rest ? rest[0].toUpperCase() + rest.slice(1) : '';
    }
    if (!detail) return { title, detail: fallback };
    return { title, detail: /close this tab/i.test(detail) ? detail : `${detail} You can close this tab.` };
  };
  switch (outcome) {
    case 'signed_in':
      return pick('Signed in.', 'You can close this tab.');
    case 'done':
      return pick('Done.', 'The session went back to the app that asked. You can close this tab.');
    case 'cancelled':
      return pick('Cancelled.', 'The login was given up. You can close this tab.');
    case 'timed_out':
      return pick('Time is up.', 'The login was not finished in time. You can close this tab.');
    case 'closed':
      return pick('The live view was closed.', 'You can close this tab.');
    case 'failed':
      return pick('The login failed.', 'You can close this tab.');
    default:
      return pick('This login is over.', 'You can close this tab.');
  }
}
