import type { Template } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable, NoValue, type Column } from '../../components/DataTable';
import { RendererLabel } from '../../components/RendererLabel';
import { categoryLabel, formatDate, formatSeconds } from '../../lib/format';
import { useItemAction } from '../../lib/use-item-action';
import { useAppStore } from '../../stores/app-store';

type InputVariable = Template['input_variables'][number];

// Four columns, so the table fits the detail card at 1280 px (whether a value is needed and its limits go under
// its type); in a narrower window the table scrolls inside its own box.
const VARIABLE_COLUMNS: Column<InputVariable>[] = [
  { header: 'Key', cellClassName: 'mono', cell: (v) => v.key },
  {
    header: 'Label',
    cell: (v) => (
      <>
        <div>{v.label}</div>
        {v.description ? <div className="cell-sub">{v.description}</div> : null}
      </>
    ),
  },
  {
    header: 'Type and limits',
    cell: (v) => (
      <>
        <span className={`badge badge-type-${v.type}`}>{v.type}</span>
        <div className="cell-sub">
          {[v.required ? 'Required' : 'Optional', limitsOf(v)].filter(Boolean).join(' · ')}
        </div>
      </>
    ),
  },
  {
    header: 'Default',
    cellClassName: 'mono',
    cell: (v) =>
      // Shown whole (wrapped), not cut: the default is what a generation gets when the input is left empty.
      v.default_value ? <span className="cell-wrap">{v.default_value}</span> : <NoValue />,
  },
];

export function TemplateDetail({
  template: t,
  onEdit,
  onDuplicate,
}: {
  template: Template;
  onEdit: () => void;
  onDuplicate: () => void;
}) {
  const navigate = useAppStore((s) => s.navigate);
  const deleteTemplate = useAppStore((s) => s.deleteTemplate);
  const removal = useItemAction(deleteTemplate);

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
          <button type="button" className="btn btn-secondary" onClick={onDuplicate}>
            Duplicate
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
                busy={removal.busyId !== null}
                onConfirm={() => removal.run(t.id)}
              />
            </>
          ) : null}
        </div>
      </div>
      {removal.error ? <ApiErrorBanner title="Could not delete the template" error={removal.error} /> : null}
      {t.description ? <p className="detail-description">{t.description}</p> : null}
      <RendererLabel item={t} offerConnect />
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
            {t.model} · {t.resolution} · {(t as { aspect_ratio?: string }).aspect_ratio ?? '16:9'}
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
      <DataTable
        label="Input variables"
        rows={t.input_variables}
        rowKey={(v) => v.key}
        rowTestId="variable-row"
        columns={VARIABLE_COLUMNS}
        empty={<p className="muted">This template takes no input.</p>}
      />
    </article>
  );
}

function limitsOf(v: InputVariable): string {
  const parts: string[] = [];
  if (v.min_length !== undefined) parts.push(`min ${v.min_length}`);
  if (v.max_length !== undefined) parts.push(`max ${v.max_length}`);
  if (v.slot) parts.push(`slot ${v.slot}`);
  return parts.join(' · ');
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
