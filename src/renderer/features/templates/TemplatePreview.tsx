import { useEffect, useMemo, useRef, useState } from 'react';
import type { TemplateInput } from '../../../shared/ipc-contract.js';
import { ProgressBar } from '../../components/ProgressBar';
import { rendererOf } from '../../lib/renderer-label';
import { sampleValues } from './preview-sample';
import { PreviewPlayer } from './PreviewPlayer';
import { TestRender } from './TestRender';
import { useDraftPreview } from './use-draft-preview';

/** A form field's path in words: "title", "prompt template", "variable 2's key". */
function fieldName(path: string): string {
  const variable = /^input_variables\.(\d+)\.(\w+)$/.exec(path);
  if (variable) return `variable ${Number(variable[1]) + 1}’s ${variable[2].replace(/_/g, ' ')}`;
  return path.replace(/\./g, ' ').replace(/_/g, ' ');
}

/**
 * The editor's preview: a free draft render of the template with sample values (the person's own or the
 * defaults), re-rendered after each change; and a test render with the real provider, priced first.
 */
export function TemplatePreview({
  body,
  problems,
  highlighted,
}: {
  body: TemplateInput;
  /** The fields the form's checks refuse (paths: "title", "input_variables.0.key"). */
  problems: string[];
  /** Whether the form shows them (after a save was tried): only then are any fields highlighted. */
  highlighted: boolean;
}) {
  const [own, setOwn] = useState<Record<string, string>>({});
  const [pinned, setPinned] = useState(false);
  const section = useRef<HTMLElement>(null);
  // While pinned, the fields scrolled to (by focus, or an outcome brought into view) stop below the preview: its
  // height is the editor's --pinned-preview-h (template-editor.css).
  useEffect(() => {
    const el = section.current;
    const editor = el?.parentElement;
    if (!el || !editor || !pinned) return;
    const note = () => editor.style.setProperty('--pinned-preview-h', `${Math.ceil(el.offsetHeight) + 12}px`);
    note();
    const watch = new ResizeObserver(note);
    watch.observe(el);
    return () => {
      watch.disconnect();
      editor.style.removeProperty('--pinned-preview-h');
    };
  }, [pinned]);
  const { values, missing } = useMemo(() => sampleValues(body.input_variables, own), [body.input_variables, own]);
  const blocked = problems.length
    ? highlighted
      ? 'Fix the highlighted fields to see a preview.'
      : `To see a preview, fill in ${problems.slice(0, 3).map(fieldName).join(', ')}${problems.length > 3 ? ' and more' : ''}.`
    : missing.length
      ? `Give ${missing.join(', ')} a default or sample value to see a preview.`
      : null;
  const { state, scratchId } = useDraftPreview(body, values, blocked);
  const url = state.kind === 'ready' ? state.url : state.kind === 'rendering' ? state.url : null;
  const texts = body.input_variables.filter((v) => v.type === 'text');
  const hosted = rendererOf(body).kind === 'hosted';
  return (
    <section
      ref={section}
      className={`template-preview${pinned ? ' preview-pinned' : ''}`}
      aria-labelledby="template-preview-title"
    >
      <div className="preview-body">
        <PreviewPlayer
          url={url}
          frameClassName={`preview-frame preview-${(body.aspect_ratio ?? '16:9').replace(':', 'x')}`}
        >
          {state.kind === 'rendering' ? (
            <div className={`preview-note${url ? ' preview-updating' : ''}`}>
              <span>Rendering a draft…</span>
              <ProgressBar value={state.progress} label="Draft render" />
            </div>
          ) : state.kind !== 'ready' ? (
            <p className={`preview-note${state.kind === 'error' ? ' field-error' : ''}`} data-testid="preview-message">
              {state.message}
            </p>
          ) : null}
        </PreviewPlayer>
        <div className="preview-side">
          <h3 id="template-preview-title">Preview</h3>
          <p className="field-hint preview-about">
            A free draft from the local renderer at low resolution, re-rendered as you edit; it is never charged.
          </p>
          {/* Wide editors keep the preview beside the fields by themselves (template-editor.css); narrow ones ask. */}
          <label className="preview-pin">
            <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.target.checked)} />
            Keep the preview in view while editing
          </label>
          {texts.length ? (
            <details className="advanced">
              <summary>Sample values</summary>
              {texts.map((v) => (
                <label key={v.key} className="sample-value">
                  <span>{v.label || v.key}</span>
                  <input
                    value={own[v.key] ?? ''}
                    placeholder={values[v.key] ?? ''}
                    onChange={(e) => setOwn((o) => ({ ...o, [v.key]: e.target.value }))}
                  />
                </label>
              ))}
            </details>
          ) : null}
          {hosted ? <TestRender scratchId={scratchId} values={values} disabled={Boolean(blocked)} /> : null}
        </div>
      </div>
    </section>
  );
}
