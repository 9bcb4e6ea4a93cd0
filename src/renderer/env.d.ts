import type { AgentStudioBridge } from '../shared/ipc-contract.js';

declare global {
  interface Window {
    /** Installed by the preload (Electron) or by a test bridge. */
    agentStudio: AgentStudioBridge;
  }
}
export {};
