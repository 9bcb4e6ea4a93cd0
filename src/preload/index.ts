// The only bridge between the page and the main process: `invoke` for the channels of the shared
// contract (IPC_CONTRACT) and `on` for its events (IPC_EVENTS), plus `pickDroppedFile`, which finds a
// dropped file's path here so the page never names one. Any other name (and the preload's own
// channels) is refused here, before it reaches ipcRenderer; main checks the sender and parses every argument.
// Never exposes ipcRenderer or its event objects. Sandboxed: bundled to one CJS file.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { isEventName, isPageChannel, type AgentStudioBridge } from '../shared/ipc-contract.js';

const bridge = {
  invoke(channel: unknown, args?: unknown): Promise<unknown> {
    if (!isPageChannel(channel)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'unknown_channel', message: `Unknown IPC channel "${String(channel)}"` },
      });
    }
    return ipcRenderer.invoke(channel, args);
  },
  on(event: unknown, listener: (payload: unknown) => void): () => void {
    if (!isEventName(event)) throw new Error(`Unknown app event "${String(event)}"`);
    if (typeof listener !== 'function') throw new Error('on(event, listener) needs a function');
    const wrapped = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(event, wrapped);
    return () => void ipcRenderer.removeListener(event, wrapped);
  },
  pickDroppedFile(file: unknown): Promise<unknown> {
    // Only a File the person dropped (or chose) has a path on disk; a page cannot make one up.
    let path = '';
    try {
      path = webUtils.getPathForFile(file as File);
    } catch {
      // not a File
    }
    if (!path) return Promise.resolve({ ok: true, value: null });
    return ipcRenderer.invoke('uploads:pickDropped', { path });
  },
};

contextBridge.exposeInMainWorld('agentStudio', Object.freeze(bridge) as AgentStudioBridge);
