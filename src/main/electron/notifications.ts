// OS notifications when a generation finishes or fails and the window is not in front (the decision
// and wording: core/desktop/generation-notice.ts), and when a login waits for the person (its live page is in the
// window, under the "Needs you" banner). Follows the running core across restarts.
import { Notification, type BrowserWindow } from 'electron';
import type { HostedCore } from '../core/desktop/core-host.js';
import { generationNotice, type FinishedGeneration } from '../core/desktop/generation-notice.js';
import { callHttpChannel } from '../core/desktop/http-channel.js';
import { loginNotice } from '../core/desktop/login-notice.js';
import type { CoreApi } from '../core/http/in-process-api.js';
import { IPC_CONTRACT, type Generation, type Template } from '../../shared/ipc-contract.js';

export interface GenerationNotifierOptions {
  /** The running core (core-host.ts CoreHost): its API, and a new one after a restart. */
  host: { api: CoreApi; current(): HostedCore; onChange(listener: () => void): () => void };
  mainWindow(): BrowserWindow | null;
  /** Brings the window to the front (a click on the notice). */
  showWindow(): void;
  /** Whether notices are wanted (a setting, when there is one). */
  enabled?(): boolean;
}

/** Returns the function that stops the notices. */
export function notifyFinishedGenerations(opts: GenerationNotifierOptions): () => void {
  const { host } = opts;
  // Kept referenced until clicked or closed: a notification that is garbage-collected loses its click.
  const shown = new Set<Notification>();

  const describe = async (id: string, status: FinishedGeneration['status']): Promise<FinishedGeneration> => {
    const got = await callHttpChannel(host.api, IPC_CONTRACT['generations:get'], { params: { id } });
    const g = got.ok ? (got.value as Generation) : null;
    const template = g
      ? await callHttpChannel(host.api, IPC_CONTRACT['templates:get'], { params: { id: g.template_id } })
      : null;
    return {
      id,
      status,
      templateTitle: template?.ok ? (template.value as Template).title : null,
      error: g?.error ?? null,
    };
  };

  return followCore(host, (running) =>
    running.core.events.on('generation.status', (e) => {
      if (e.orgId !== running.desktop.orgId || e.status === 'generating') return;
      if (!Notification.isSupported()) return;
      const win = opts.mainWindow();
      const windowFocused = Boolean(win && !win.isDestroyed() && win.isVisible() && win.isFocused());
      const enabled = opts.enabled?.() ?? true;
      if (!enabled || windowFocused || e.status === 'canceled') return;
      void describe(e.generationId, e.status)
        .then((g) => {
          const notice = generationNotice(g, { windowFocused, enabled });
          if (!notice) return;
          showKept(shown, notice, opts.showWindow);
        })
        .catch((err: Error) => running.core.log.warn({ err: err.message }, 'desktop: notification failed'));
    }),
  );
}

/** Shows a notice whose click brings the window; kept referenced until closed (one garbage-collected loses its click). */
function showKept(shown: Set<Notification>, notice: { title: string; body: string }, showWindow: () => void): void {
  const note = new Notification({ title: notice.title, body: notice.body });
  shown.add(note);
  note.on('click', () => {
    shown.delete(note);
    showWindow();
  });
  note.on('close', () => shown.delete(note));
  note.show();
}

/**
 * A login of the window's organization waits for the person: a notice (also while the window is in front but
 * minimised or hidden in the tray) whose click brings the window, where the banner shows the live page.
 */
export function notifyLoginsNeedingPerson(opts: GenerationNotifierOptions): () => void {
  const shown = new Set<Notification>();
  return followCore(opts.host, (running) =>
    running.core.events.on('login.needs_person', (e) => {
      if (e.orgId !== running.desktop.orgId || !Notification.isSupported() || opts.enabled?.() === false) return;
      const win = opts.mainWindow();
      if (win && !win.isDestroyed() && win.isVisible() && win.isFocused()) return;
      const notice = loginNotice(e.site, e.reason);
      showKept(shown, notice, opts.showWindow);
    }),
  );
}

/** Subscribes to the running core, and again to each core a restart brings; returns the function that stops. */
function followCore(host: GenerationNotifierOptions['host'], subscribe: (running: HostedCore) => () => void) {
  let stop = subscribe(host.current());
  const stopFollowing = host.onChange(() => {
    stop();
    stop = subscribe(host.current());
  });
  return () => {
    stopFollowing();
    stop();
  };
}
