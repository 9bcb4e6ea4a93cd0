import { useId } from 'react';
import { PROMPT_TOKEN } from '../../../shared/template-rules.js';

/**
 * The prompt template: a textarea over a copy of its text in which every `{{key}}` token is marked (known
 * tokens in the accent colour, unknown ones in red), with the token check under it.
 */
export function PromptField({
  value,
  variableKeys,
  unknown,
  unused,
  error,
  onChange,
}: {
  value: string;
  variableKeys: string[];
  unknown: string[];
  unused: string[];
  error?: string;
  onChange: (v: string) => void;
}) {
  const id = useId();
  const notes = [
    unknown.length ? `Unknown token${unknown.length > 1 ? 's' : ''}: ${unknown.map((k) => `{{${k}}}`).join(', ')}` : '',
    unused.length ? `Not used in the prompt: ${unused.join(', ')}` : '',
  ].filter(Boolean);
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <div className="field-label-row">
        <label htmlFor={id}>Prompt template</label>
      </div>
      <div className="prompt-editor">
        <div className="prompt-highlight mono" aria-hidden="true">
          {highlight(value, variableKeys)}
          {'\n'}
        </div>
        <textarea
          id={id}
          rows={3}
          className="mono"
          spellCheck={false}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
      <p
        className={`field-hint${notes.length ? ' field-warning' : ''}`}
        id={`${id}-hint`}
        data-testid="prompt-token-report"
      >
        {notes.length ? notes.join(' · ') : <>Use {'{{key}}'} tokens to insert text variables.</>}
      </p>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function highlight(text: string, keys: string[]) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(PROMPT_TOKEN)) {
    const at = m.index ?? 0;
    parts.push(text.slice(last, at));
    parts.push(
      <mark key={at} className={`token${keys.includes(m[1]) ? '' : ' token-unknown'}`}>
        {m[0]}
      </mark>,
    );
    last = at + m[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}
