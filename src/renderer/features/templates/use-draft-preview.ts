// The editor's live preview: the template as it stands is rendered as a draft (`draft: true`: the local
// renderer at low resolution and frame rate, free, never sent to a hosted provider) ~800 ms after the last
// change; a newer change cancels the draft still rendering. The template as it stands is previewed through a
// scratch copy of it (`scratch: true`: created on the first preview, replaced on each, deleted when the editor
// closes). The service never lists a scratch template and deletes it once unchanged for a day, so the copy is
// not seen by agents or the Templates screen, and one a quit or a crash left behind does not stay. Saving goes
// to the real template (templates.slice.ts), never to this copy.
import { useEffect, useRef, useState } from 'react';
import type { TemplateInput } from '../../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../../lib/api';
import { cancelGeneration, followGeneration, generateFromTemplate } from '../../lib/studio-api';

export const PREVIEW_DEBOUNCE_MS = 800;

export type PreviewState =
  | { kind: 'idle'; message: string }
  /** `url`: the last draft, shown until the new one is ready. */
  | { kind: 'rendering'; progress: number; url: string | null }
  | { kind: 'ready'; url: string; generationId: string }
  | { kind: 'error'; message: string };

export function useDraftPreview(
  body: TemplateInput | null,
  values: Record<string, string>,
  blocked: string | null,
): { state: PreviewState; scratchId: () => Promise<string | null> } {
  const [state, setState] = useState<PreviewState>({ kind: 'idle', message: 'The preview appears here.' });
  const scratch = useRef<string | null>(null);
  const running = useRef<string | null>(null);
  const seq = useRef(0);
  const lastUrl = useRef<string | null>(null);
  /** Ends the waits on drafts that a newer change replaced. */
  const stops = useRef<(() => void)[]>([]);
  const key = body && !blocked ? JSON.stringify([body, values]) : null;

  const chain = useRef<Promise<unknown>>(Promise.resolve());
  /** The scratch copy of the template as it stands now (created or replaced), one write at a time. */
  const sync = (b: TemplateInput): Promise<string> => {
    const next = chain.current.catch(() => undefined).then(() => write(b));
    chain.current = next;
    return next;
  };
  const write = async (b: TemplateInput): Promise<string> => {
    const copy = { ...b, title: `${b.title || 'Untitled'} (preview)`.slice(0, 200) };
    if (scratch.current) {
      await invoke('templates:update', { params: { id: scratch.current }, body: copy });
    } else {
      scratch.current = (await invoke('templates:create', { body: { ...copy, scratch: true } })).id;
    }
    return scratch.current;
  };

  useEffect(() => {
    if (!key || !body) {
      // A draft still rendering is for a template that no longer stands: it stops.
      seq.current++;
      stops.current.splice(0).forEach((stop) => stop());
      if (running.current) void cancelGeneration(running.current);
      running.current = null;
      if (blocked) setState({ kind: 'idle', message: blocked });
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      void (async () => {
        const previous = running.current;
        running.current = null;
        stops.current.splice(0).forEach((stop) => stop());
        if (previous) void cancelGeneration(previous);
        setState({ kind: 'rendering', progress: 0, url: lastUrl.current });
        try {
          const id = await sync(body);
          if (mine !== seq.current) return;
          const answer = await generateFromTemplate(id, { variables: values, draft: true });
          const genId = answer.generations[0]?.generation_id;
          if (!genId) throw new Error('The draft was not started.');
          if (mine !== seq.current) return void cancelGeneration(genId);
          running.current = genId;
          const follow = followGeneration(genId, (progress) => {
            if (mine === seq.current) setState({ kind: 'rendering', progress, url: lastUrl.current });
          });
          stops.current.push(follow.stop);
          const g = await follow.done;
          running.current = null;
          if (mine !== seq.current) return;
          if (g.status === 'completed' && g.video_url) {
            lastUrl.current = g.video_url;
            setState({ kind: 'ready', url: g.video_url, generationId: genId });
          } else throw new Error(g.error ?? `The draft ${g.status}.`);
        } catch (err) {
          if (mine === seq.current) setState({ kind: 'error', message: errorMessage(err) });
        }
      })();
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // `key` stands for body and values: a new object with the same content renders nothing new.
  }, [key, blocked]);

  // Closing the editor: the draft still rendering is cancelled, the scratch copy deleted (best effort: the
  // service's sweep deletes it a day later if this does not reach it).
  useEffect(
    () => () => {
      seq.current++;
      stops.current.splice(0).forEach((stop) => stop());
      if (running.current) void cancelGeneration(running.current);
      const id = scratch.current;
      if (id) void invoke('templates:delete', { params: { id } }).catch(() => undefined);
    },
    [],
  );

  return {
    state,
    scratchId: async () => (body ? sync(body) : null),
  };
}
