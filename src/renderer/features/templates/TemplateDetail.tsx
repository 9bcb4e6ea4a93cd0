import { useState } from 'react';
import type { Template } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { ConfirmButton } from '../../components/ConfirmButton';
import { categoryLabel, formatDate, formatSeconds } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';

export function TemplateDetail({ template: t, onEdit }: { template: Template; onEdit: () => void }) {
  const navigate = useAppStore((s) => s.navigate);
  const deleteTemplate = useAppStore((s) => s.deleteTemplate);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  return (
    <article className="template-detail" data-testid="template-detail" aria-labelledby="template-title">
      <div className="detail-header">
        <div>
          <h2 id="template-title">{t.title}</h2>
          <div className="item-meta">
            <span className="badge badge-accent">{categoryLabel(t.category)}</span>
            {t.builtin ? (
              <span className="badge badge-neutral">Built-in</span>
            ) : (
              <span className="badge badge-neutral">Custom</span>
            )}
            <span className="mono muted">{t.id}</span>
          </div>
        </div>
        <div className="detail-actions">
          <button type="button" className="btn btn-primary" onClick={() => navigate('generate', { templateId: t.id })}>
            Generate
          </button>
          {!t.builtin ? (
            <>
              <button type="button" className="btn btn-secondary" onClick={onEdit}>
                Edit
              </button>
              <ConfirmButton
                label="Delete"
                small={false}
                ariaLabel={`Delete template ${t.title}`}
                busy={busy}
                onConfirm={async () => {
                  setBusy(true);
                  setError(null);
                  try {
                    await deleteTemplate(t.id);
                  } catch (err) {
                    setError(err);
                  } finally {
                    setBusy(false);
                  }
                }}
              />
            </>
          ) : null}
        </div>
      </div>
      {error ? <ApiErrorBanner title="Could not delete the template" error={error} /> : null}
      {t.description ? <p className="detail-description">{t.description}</p> : null}
      <dl className="stats stats-grid">
        <div>
          <dt>Duration</dt>
          <dd>{formatSeconds(t.duration_sec)}</dd>
        </div>
        <div>
          <dt>Typical wait</dt>
          <dd>
            {t.latency_estimate_sec
              ? `${formatSeconds(t.latency_estimate_sec.typical)} · busy ${formatSeconds(t.latency_estimate_sec.busy)}`
              : '—'}
          </dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd>
            {t.model} · {t.resolution}
          </dd>
        </div>
        <div>
          <dt>Credits per video</dt>
          <dd>{t.credits_per_video ?? 'No pricing'}</dd>
        </div>
        {t.updated_at ? (
          <div>
            <dt>Updated</dt>
            <dd>{formatDate(t.updated_at)}</dd>
          </div>
        ) : null}
      </dl>
      {t.prompt_template ? (
        <>
          <h3>Prompt template</h3>
          <pre className="prompt">{highlightTokens(t.prompt_template)}</pre>
        </>
      ) : null}
      <h3>Input variables</h3>
      {t.input_variables.length === 0 ? (
        <p className="muted">This template takes no input.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Input variables">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Label</th>
                <th scope="col">Type</th>
                <th scope="col">Required</th>
                <th scope="col">Limits / slot</th>
                <th scope="col">Default</th>
              </tr>
            </thead>
            <tbody>
              {t.input_variables.map((v) => (
                <tr key={v.key} data-testid="variable-row">
                  <td className="mono">{v.key}</td>
                  <td className="col-label">
                    <div>{v.label}</div>
                    {v.description ? <div className="cell-sub">{v.description}</div> : null}
                  </td>
                  <td>
                    <span className={`badge badge-type-${v.type}`}>{v.type}</span>
                  </td>
                  <td>{v.required ? 'Yes' : 'No'}</td>
                  <td>{limitsOf(v)}</td>
                  <td className="mono">
                    {v.default_value ? (
                      <span className="truncate" title={v.default_value}>
                        {v.default_value}
                      </span>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}

function limitsOf(v: Template['input_variables'][number]): string {
  const parts: string[] = [];
  if (v.min_length !== undefined) parts.push(`min ${v.min_length}`);
  if (v.max_length !== undefined) parts.push(`max ${v.max_length}`);
  if (v.slot) parts.push(`slot ${v.slot}`);
  return parts.join(' · ') || '—';
}

function highlightTokens(prompt: string) {
  return prompt.split(/(\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\})/g).map((part, i) =>
    i % 2 === 1 ? (
      <mark key={i} className="token">
        {part}
      </mark>
    ) : (
      part
    ),
  );
}
