// The only bridge between the page and the main process: named functions, one per contract channel.
// Never exposes ipcRenderer, its event objects, or a generic invoke. Sandboxed: bundled to one CJS file.
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS, UPLOAD_PROGRESS_EVENT } from '../shared/ipc-channels.js';
import type { AgentStudioApi, UploadProgress } from '../shared/ipc-contract.js';

const api: Record<string, Record<string, (args?: unknown) => Promise<unknown>>> = {};
for (const [domain, methods] of Object.entries(IPC_CHANNELS)) {
  const fns: Record<string, (args?: unknown) => Promise<unknown>> = {};
  for (const method of methods) {
    const channel = `${domain}:${method}`;
    fns[method] = (args?: unknown) => ipcRenderer.invoke(channel, args);
  }
  api[domain] = Object.freeze(fns);
}

const events: AgentStudioApi['events'] = {
  onUploadProgress(listener) {
    const wrapped = (_event: Electron.IpcRendererEvent, progress: UploadProgress) => listener(progress);
    ipcRenderer.on(UPLOAD_PROGRESS_EVENT, wrapped);
    return () => void ipcRenderer.removeListener(UPLOAD_PROGRESS_EVENT, wrapped);
  },
};

contextBridge.exposeInMainWorld(
  'agentStudio',
  Object.freeze({ ...api, events: Object.freeze(events) }) as unknown as AgentStudioApi,
);
