// The IPC channel names, as plain data (no zod), so the sandboxed preload stays a few lines of code.
// ipc-contract.ts checks at compile time that this list and the contract name the same channels.
export const IPC_CHANNELS = {
  app: ['getInfo', 'openExternal'],
  sessions: ['list', 'delete', 'testLogin'],
  templates: ['list', 'get', 'create', 'update', 'delete'],
  uploads: ['pickFile', 'upload'],
  characters: ['list', 'create'],
  generate: ['fromTemplate'],
  generations: ['list', 'get', 'cancel'],
  credits: ['get'],
} as const;

/** Main -> renderer event with upload progress. */
export const UPLOAD_PROGRESS_EVENT = 'uploads:progress';
