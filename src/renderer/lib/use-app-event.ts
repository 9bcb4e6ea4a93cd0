// React side of the contract's events: subscribe for the life of a component, typed by event name.
import { useEffect, useRef } from 'react';
import type { IpcEventName, IpcEventPayload } from '../../shared/ipc-contract.js';
import { onAppEvent } from './api';

/** Calls `listener` with each `event` payload while the component is mounted (always the latest listener). */
export function useAppEvent<E extends IpcEventName>(event: E, listener: (payload: IpcEventPayload<E>) => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onAppEvent(event, (payload) => latest.current(payload)), [event]);
}
