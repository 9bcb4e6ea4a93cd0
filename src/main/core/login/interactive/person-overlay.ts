import { randomBytes } from 'node:crypto';
import { PERSON_TASK } from '../../../../shared/person-task.js';
import type { InteractiveReason } from './interactive-finisher.js';

export const DONE_LABEL = 'Done — hand the session back';
export const CANCEL_LABEL = 'Cancel';
/** The bar's element id (its content lives in an open shadow root, so the site's CSS cannot reach it). */
export const BAR_ID = 'agent-studio-person-bar';

export type BarAction = 'done' | 'cancel';

export function instructionFor(reason: InteractiveReason): string {
  return `Agent Studio: ${PERSON_TASK[reason]}. When you are signed in, press Done.`;
}

/**
 * A fresh name for the page binding the bar calls. Random so a site cannot guess it up front; a page
 * script that enumerates `window` could still call it, and all it could do is end its own window early.
 */
export function newBindingName(): string {
  return `__agentStudioPerson_${randomBytes(6).toString('hex')}`;
}

interface BarArgs {
  binding: string;
  instruction: string;
  /** Epoch ms when the window closes by itself (shown as a countdown). */
  deadline: number;
  done: string;
  cancel: string;
  id: string;
}

/**
 * Runs in every document of the window's context (context.addInitScript), so the bar comes back after
 * each navigation and is in popups too; frames other than the top one are left alone. It is put on
 * <html>, not <body>, and put back if the page's own rendering removes it.
 */
function installBar(args: BarArgs): void {
  if (window.top !== window) return;
  const host = document.createElement('div');
  host.id = args.id;
  host.style.cssText = 'all:initial;position:fixed;left:0;right:0;bottom:0;z-index:2147483647;display:block';
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML =
    '<style>' +
    '.bar{display:flex;align-items:center;gap:12px;padding:10px 16px;background:#111827;color:#f9fafb;' +
    'font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;box-shadow:0 -2px 8px rgba(0,0,0,.3)}' +
    '.msg{flex:1}.left{opacity:.7;font-variant-numeric:tabular-nums}' +
    'button{font:inherit;border:0;border-radius:6px;padding:6px 12px;cursor:pointer}' +
    '.done{background:#22c55e;color:#052e16;font-weight:600}.cancel{background:#374151;color:#f9fafb}' +
    'button:disabled{opacity:.5;cursor:default}' +
    '</style>' +
    '<div class="bar" role="region" aria-label="Agent Studio"><span class="msg" role="status"></span>' +
    '<span class="left"></span><button type="button" class="done"></button>' +
    '<button type="button" class="cancel"></button></div>';
  const msg = root.querySelector('.msg') as HTMLElement;
  const left = root.querySelector('.left') as HTMLElement;
  const done = root.querySelector('.done') as HTMLButtonElement;
  const cancel = root.querySelector('.cancel') as HTMLButtonElement;
  msg.textContent = args.instruction;
  done.textContent = args.done;
  cancel.textContent = args.cancel;
  const send = (action: 'done' | 'cancel') => {
    done.disabled = cancel.disabled = true;
    msg.textContent = action === 'done' ? 'Handing the session back…' : 'Cancelling…';
    const call = (window as unknown as Record<string, unknown>)[args.binding];
    if (typeof call === 'function') void (call as (a: string) => Promise<void>)(action);
  };
  done.addEventListener('click', () => send('done'));
  cancel.addEventListener('click', () => send('cancel'));
  const tick = () => {
    const s = Math.max(0, Math.round((args.deadline - Date.now()) / 1000));
    left.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')} left`;
  };
  tick();
  setInterval(tick, 1000);
  const mount = () => {
    if (!host.isConnected && document.documentElement) document.documentElement.appendChild(host);
  };
  const start = () => {
    mount();
    new MutationObserver(mount).observe(document.documentElement, { childList: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
  else start();
}

/** The init script that shows the bar for a login stopped at `reason`. */
export function barScript(opts: { binding: string; reason: InteractiveReason; deadline: number }): string {
  const args: BarArgs = {
    binding: opts.binding,
    instruction: instructionFor(opts.reason),
    deadline: opts.deadline,
    done: DONE_LABEL,
    cancel: CANCEL_LABEL,
    id: BAR_ID,
  };
  // The `__name` shim: esbuild's keepNames (tsx) may wrap inner functions in a helper the page lacks.
  return `(() => { var __name = (f) => f; (${installBar.toString()})(${JSON.stringify(args)}); })();`;
}
