/** Following one ComfyUI prompt over its `/ws` socket: progress as it happens, and how it ended. */

export type ComfyOutcome = { kind: 'done' } | { kind: 'error'; message: string } | { kind: 'interrupted' };

export interface ComfyWatch {
  /** The socket is open, so progress and the end arrive as they happen (else the caller polls). */
  readonly live: boolean;
  /** ComfyUI has begun this prompt (it is no longer waiting in the queue). */
  readonly started: boolean;
  /** Settles when the socket reports the prompt's end; never rejects. */
  readonly outcome: Promise<ComfyOutcome>;
  /** Resolves once the socket is open, or after `ms` if it is not (the caller then polls). */
  opened(ms: number): Promise<void>;
  /** Starts reading messages of `promptId` (those that arrived before are replayed). */
  follow(promptId: string, onProgress: (percent: number) => void): void;
  close(): void;
}

interface WsMessage {
  type?: unknown;
  data?: Record<string, unknown> | null;
}

/**
 * Opens `ws(s)://<base>/ws?clientId=<id>` (ComfyUI sends a prompt's messages to the client id it was
 * queued with, so the socket is opened before the prompt is queued and nothing is missed) and reads
 * progress / executing / execution_cached / execution_success / execution_error / execution_interrupted
 * of the followed prompt. Progress is the share of the workflow's nodes done plus the running node's own
 * value/max. Binary preview frames are ignored. If the socket cannot open or drops, `live` turns false
 * and nothing else happens: the caller falls back to polling /history.
 */
export function openWatch(wsUrl: string, nodeCount: number): ComfyWatch {
  let live = false;
  let started = false;
  let promptId: string | null = null;
  let onProgress: (percent: number) => void = () => {};
  /** Messages that arrived before we knew the prompt id (the prompt may start at once). */
  const early: string[] = [];
  let markOpen: () => void = () => {};
  const open = new Promise<void>((resolve) => (markOpen = resolve));
  let settle: (o: ComfyOutcome) => void = () => {};
  const outcome = new Promise<ComfyOutcome>((resolve) => (settle = resolve));
  const doneNodes = new Set<string>();
  let current: string | null = null;
  let fraction = 0;

  const report = () => {
    const total = Math.max(1, nodeCount);
    onProgress(Math.min(99, ((doneNodes.size + fraction) / total) * 100));
  };

  const onMessage = (raw: unknown) => {
    if (typeof raw !== 'string') return;
    if (promptId === null) {
      if (early.length < 10_000) early.push(raw);
      return;
    }
    let msg: WsMessage;
    try {
      msg = JSON.parse(raw) as WsMessage;
    } catch {
      return;
    }
    const data = msg.data ?? {};
    // Older ComfyUI sends progress without a prompt id: it belongs to whatever is running, ours once started.
    const ours = data.prompt_id === promptId || (data.prompt_id === undefined && msg.type === 'progress' && started);
    if (!ours) return;
    switch (msg.type) {
      case 'execution_start':
        started = true;
        break;
      case 'execution_cached':
        started = true;
        if (Array.isArray(data.nodes)) for (const n of data.nodes) doneNodes.add(String(n));
        report();
        break;
      case 'executing':
        started = true;
        if (current !== null) doneNodes.add(current);
        fraction = 0;
        if (data.node === null || data.node === undefined) {
          // Before execution_success existed, `executing` with no node meant the prompt was finished.
          settle({ kind: 'done' });
          return;
        }
        current = String(data.node);
        report();
        break;
      case 'progress': {
        const value = Number(data.value);
        const max = Number(data.max);
        if (max > 0 && value >= 0) fraction = Math.min(1, value / max);
        report();
        break;
      }
      case 'execution_success':
        settle({ kind: 'done' });
        break;
      case 'execution_error': {
        const where = data.node_id
          ? `node ${String(data.node_id)}${data.node_type ? ` (${String(data.node_type)})` : ''}: `
          : '';
        settle({ kind: 'error', message: `${where}${String(data.exception_message ?? 'the workflow failed')}` });
        break;
      }
      case 'execution_interrupted':
        settle({ kind: 'interrupted' });
        break;
    }
  };

  let socket: WebSocket | null = null;
  try {
    socket = new WebSocket(wsUrl);
    socket.binaryType = 'arraybuffer';
    socket.addEventListener('open', () => {
      live = true;
      markOpen();
    });
    socket.addEventListener('message', (ev) => onMessage(ev.data));
    socket.addEventListener('close', () => {
      live = false;
      markOpen();
    });
    socket.addEventListener('error', () => {
      live = false;
      markOpen();
    });
  } catch {
    socket = null;
  }

  return {
    get live() {
      return live;
    },
    get started() {
      return started;
    },
    outcome,
    async opened(ms) {
      const timer = new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
      await Promise.race([open, timer]);
    },
    follow(id, report) {
      promptId = id;
      onProgress = report;
      for (const raw of early.splice(0)) onMessage(raw);
    },
    close() {
      live = false;
      try {
        socket?.close();
      } catch {
        // already closed
      }
    },
  };
}
