import { useMemo, useState } from 'react';
import type { TemplateInput } from '../../../shared/ipc-contract.js';
import { ProgressBar } from '../../components/ProgressBar';
import { rendererOf } from '../../lib/renderer-label';
import { sampleValues } from './preview-sample';
import { TestRender } from './TestRender';
import { useDraftPreview } from './use-draft-preview';

/**
 * The editor's preview: a free draft render of the template with sample values (the person's own or the
 * defaults), re-rendered after each change; and a test render with the real provider, priced first.
 */
export function TemplatePreview({ body, invalid }: { body: TemplateInput; invalid: boolean }) {
  const [own, setOwn] = useState<Record<string, string>>({});
  const { values, missing } = useMemo(() => sampleValues(body.input_variables, own), [body.input_variables, own]);
  const blocked = invalid
    ? 'Fix the highlighted fields to see a preview.'
    : missing.length
      ? `Give ${missing.join(', ')} a default or sample value to see a preview.`
      : null;
  const { state, scratchId } = useDraftPreview(body, values, blocked);
  const url = state.kind === 'ready' ? state.url : state.kind === 'rendering' ? state.url : null;
  const texts = body.input_variables.filter((v) => v.type === 'text');
  const hosted = rendererOf(body).kind === 'hosted';
  return (
    <section className="template-preview" aria-labelledby="template-preview-title">
      <div className="preview-body">
        <div className={`preview-frame preview-${(body.aspect_ratio ?? '16:9').replace(':', 'x')}`} aria-live="polite">
          {url ? (
            <video
              key={url}
              data-testid="draft-preview"
              src={url}
              controls
              autoPlay
              muted
              loop
              playsInline
              aria-label="Draft preview"
            />
          ) : null}
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
        </div>
        <div className="preview-side">
          <h3 id="template-preview-title">Preview</h3>
          <p className="field-hint">
            A free draft from the local renderer at low resolution, re-rendered as you edit; it is never charged.
          </p>
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
