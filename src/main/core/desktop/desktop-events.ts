// Live progress for the desktop window: the core's event bus (events.ts) and the upload code turned
// into the contract's IPC_EVENTS, each payload parsed with its schema before it leaves main. The
// Electron layer supplies `send` (webContents.send). Plain Node: never imports electron.
import { IPC_EVENTS, type IpcEventName, type IpcEventPayload } from '../../../shared/ipc-contract.js';
import { isPersonReason } from '../../../shared/person-task.js';
import type { CoreEventBus } from '../events.js';
import type { Logger } from '../logger.js';

export type EventSender = <E extends IpcEventName>(event: E, payload: IpcEventPayload<E>) => void;

/**
 * Wraps the window's send so that only payloads matching the contract go out: one that does not is
 * dropped and logged (by event name and field paths only, never values).
 */
export function validatedSender(send: (event: IpcEventName, payload: unknown) => void, log?: Logger): EventSender {
  return (event, payload) => {
    const parsed = IPC_EVENTS[event].safeParse(payload);
    if (parsed.success) send(event, parsed.data);
    else log?.warn({ event, fields: parsed.error.issues.map((i) => i.path.join('.')) }, 'desktop: event dropped');
  };
}

/**
 * Forwards one organization's bus events (the desktop key's) as contract events. Other
 * organizations' events never reach the window. Returns the unsubscribe function.
 */
export function forwardCoreEvents(bus: CoreEventBus, orgId: string, emit: EventSender): () => void {
  const offs = [
    bus.on('generation.progress', (e) => {
      if (e.orgId !== orgId) return;
      emit('generation:progress', {
        id: e.generationId,
        status: 'generating',
        progress: e.progress,
        ...(e.queuePosition !== null ? { queuePosition: e.queuePosition } : {}),
      });
    }),
    bus.on('generation.status', (e) => {
      if (e.orgId !== orgId || e.status === 'generating') return;
      emit('generation:finished', { id: e.generationId, status: e.status });
    }),
    bus.on('login.step', (e) => {
      if (e.orgId !== orgId) return;
      emit('login:step', { loginId: e.loginId, step: e.step, elapsedMs: e.elapsedMs });
    }),
    bus.on('login.needs_person', (e) => {
      if (e.orgId !== orgId || !isPersonReason(e.reason)) return;
      emit('login:needs-person', {
        loginId: e.loginId,
        reason: e.reason,
        site: e.site,
        takeoverUrl: e.takeoverUrl,
      });
    }),
    bus.on('login.finished', (e) => {
      if (e.orgId !== orgId) return;
      emit('login:finished', { loginId: e.loginId, status: e.status });
    }),
  ];
  return () => offs.forEach((off) => off());
}
