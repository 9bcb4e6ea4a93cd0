import { useEffect, useState } from 'react';
import { errorMessage, invoke } from '../lib/api';
import { Icon } from './Icon';

/**
 * Copies `text` to the OS clipboard through the app (the page itself may not). Says "Copied" for a
 * moment; `label` names what is copied for screen readers ("Copy API address").
 */
export function CopyButton({
  text,
  label,
  compact = false,
  caption = 'Copy',
}: {
  text: string;
  label: string;
  compact?: boolean;
  /** The visible text when several copy buttons stand side by side ("Copy JSON", "Copy curl"). */
  caption?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(t);
  }, [state]);
  const copy = async () => {
    try {
      await invoke('app:copyText', { text });
      setState('copied');
      setProblem(null);
    } catch (err) {
      setState('failed');
      setProblem(errorMessage(err));
    }
  };
  const shown = state === 'copied' ? 'Copied' : state === 'failed' ? 'Not copied' : caption;
  return (
    <button
      type="button"
      className={`btn btn-secondary btn-small copy-button${compact ? ' btn-icon' : ''}`}
      aria-label={label}
      title={problem ?? label}
      onClick={() => void copy()}
    >
      <Icon name={state === 'copied' ? 'check' : 'copy'} size={14} />
      {compact ? null : <span aria-hidden="true">{shown}</span>}
      <span className="sr-only" role="status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? `Not copied: ${problem ?? ''}` : ''}
      </span>
    </button>
  );
}
