// The only bridge between the page and the main process: one named function per page channel of the
// shared contract (`channels[name]`, IPC_CONTRACT), `on` for its events (IPC_EVENTS), and
// `pickDroppedFile`, which finds a dropped file's path here so the page never names one. No generic
// invoke: a name outside the contract (or a preload-only channel) has no function; main checks the
// sender and parses every argument.
// Never exposes ipcRenderer or its event objects. Sandboxed: bundled to one CJS file.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { isEventName, pageChannelNames, type AgentStudioBridge } from '../shared/ipc-contract.js';

// One named function per page channel, made from the contract: no generic invoke reaches the page.
const channels = Object.freeze(
  Object.fromEntries(
    pageChannelNames().map((name) => [name, (args?: unknown): Promise<unknown> => ipcRenderer.invoke(name, args)]),
  ),
);

const bridge = {
  channels,
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
