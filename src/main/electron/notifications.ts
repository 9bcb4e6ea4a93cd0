// OS notifications when a generation finishes or fails and the window is not in front (the decision
// and wording: core/desktop/generation-notice.ts). Follows the running core across restarts.
import { Notification, type BrowserWindow } from 'electron';
import type { HostedCore } from '../core/desktop/core-host.js';
import { generationNotice, type FinishedGeneration } from '../core/desktop/generation-notice.js';
import { callHttpChannel } from '../core/desktop/http-channel.js';
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

  const follow = () => {
    const running = host.current();
    return running.core.events.on('generation.status', (e) => {
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
          const shown = new Notification({ title: notice.title, body: notice.body });
          shown.on('click', () => opts.showWindow());
          shown.show();
        })
        .catch((err: Error) => running.core.log.warn({ err: err.message }, 'desktop: notification failed'));
    });
  };
  let stop = follow();
  const stopFollowing = host.onChange(() => {
    stop();
    stop = follow();
  });
  return () => {
    stopFollowing();
    stop();
  };
}
