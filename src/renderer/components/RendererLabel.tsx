import { useEffect, useState } from 'react';
import type { ProviderStatus } from '../../shared/ipc-contract.js';
import { invoke } from '../lib/api';
import { PROVIDER_LABELS, rendererOf, type RendererInfo } from '../lib/renderer-label';
import { ProviderConnect } from './ProviderConnect';
import './studio.css';

/**
 * Says what makes the video: the local renderer (offline motion graphics, no AI model) or a provider and its
 * model. With `offerConnect`, a local template also offers to connect an AI provider right there.
 */
export function RendererLabel({
  item,
  offerConnect = false,
  compact = false,
}: {
  item: { renderer?: unknown; provider?: unknown; model?: string };
  offerConnect?: boolean;
  compact?: boolean;
}) {
  const r: RendererInfo = rendererOf(item);
  const [open, setOpen] = useState(false);
  // A hosted provider that needs a key this computer does not have: said before anything is charged.
  const keyed = r.kind === 'hosted' && (r.name === 'fal' || r.name === 'replicate') ? r.name : null;
  const [status, setStatus] = useState<ProviderStatus | null>(null);
  useEffect(() => {
    if (!offerConnect || !keyed) return;
    let live = true;
    invoke('providers:status').then(
      (s) => live && setStatus(s),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [offerConnect, keyed, open]);
  const keyState = keyed && status ? status[keyed] : null;
  // No key, or one the provider refused when it was last asked: either way its renders fail.
  const refused = keyState?.check?.outcome === 'refused';
  const missingKey = !!keyState && (!keyState.stored || refused);
  if (compact) {
    return (
      <span className={`renderer-chip renderer-${r.kind}`} data-testid="renderer-label" title={r.label}>
        {r.kind === 'local' ? 'Local draft' : r.label}
      </span>
    );
  }
  return (
    <div className={`renderer-note renderer-${r.kind}`}>
      <p>
        <span className="muted">Rendered by </span>
        <strong data-testid="renderer-label">{r.label}</strong>
      </p>
      {offerConnect && (r.kind === 'local' || missingKey) ? (
        <>
          <p className={missingKey ? 'field-error' : 'muted'}>
            {missingKey
              ? refused
                ? `${PROVIDER_LABELS[r.name]} refused the key stored on this computer: its renders fail until a valid key is set.`
                : `${PROVIDER_LABELS[r.name]} is not connected on this computer: its renders fail until a key is set.`
              : 'Not an AI model: the text is shown as motion graphics. For AI video, connect a provider and set it on a template of your own.'}
          </p>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
          >
            Connect an AI provider
          </button>
          {open ? <ProviderConnect /> : null}
        </>
      ) : null}
    </div>
  );
}
