import { RendererLabel } from '../../components/RendererLabel';
import { useEffect, useState } from 'react';
import type { Generation } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { StatusBadge } from '../../components/Badge';
import { DataTable, type Column } from '../../components/DataTable';
import { RefreshButton, type ListLoad } from '../../components/ListFrame';
import { PageHeader } from '../../components/PageHeader';
import { ProgressBar } from '../../components/ProgressBar';
import { EmptyState } from '../../components/StatusViews';
import { Thumbnail } from '../../components/Thumbnail';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formatDateSeconds } from '../../lib/format';
import { useItemAction } from '../../lib/use-item-action';
import { useAppStore } from '../../stores/app-store';
import { GenerationPlayer, progressText } from './GenerationPlayer';
import { keyInputs, promptStart } from './generation-summary';
import { RegenerateButton } from './RegenerateButton';

const PROGRESS_TONE: Partial<Record<Generation['status'], 'danger' | 'success' | 'muted'>> = {
  failed: 'danger',
  completed: 'success',
  canceled: 'muted',
};

/**
 * The columns of the generations table. The template column names the template by its title and tells
 * generations of one template apart: the prompt's start and the inputs the request gave.
 */
function generationColumns(
  titleOf: (templateId: string) => string,
  characterName: (id: string) => string | undefined,
): Column<Generation>[] {
  return [
    {
      header: 'Preview',
      hideHeader: true,
      className: 'col-thumb',
      cell: (g) => <Thumbnail url={g.thumbnail_url} contentType="image/jpeg" alt={`Preview of ${g.id}`} size="small" />,
    },
    {
      header: 'Template',
      cell: (g) => (
        <>
          <div className="cell-title">{titleOf(g.template_id)}</div>
          <div className="cell-sub">
            <RendererLabel item={g} compact />
            {(g as { draft?: boolean }).draft ? <span className="badge badge-neutral">draft</span> : null}
          </div>
          {promptStart(g) ? (
            <div className="cell-sub generation-prompt" data-testid="generation-prompt">
              {promptStart(g)}
            </div>
          ) : null}
          {keyInputs(g, characterName).length ? (
            <div className="cell-sub" data-testid="generation-inputs">
              {keyInputs(g, characterName).join(' · ')}
            </div>
          ) : null}
          <div className="cell-sub mono">{g.id}</div>
        </>
      ),
    },
    {
      header: 'Status',
      cell: (g) => (
        <>
          <StatusBadge status={g.status} />
          {g.error ? <div className="cell-sub error-text">{g.error}</div> : null}
        </>
      ),
    },
    {
      header: 'Progress',
      className: 'col-progress',
      cell: (g) => (
        <div className="progress-cell">
          <ProgressBar
            value={g.status === 'completed' ? 100 : g.progress}
            label={`Progress of ${g.id}`}
            tone={PROGRESS_TONE[g.status] ?? 'accent'}
          />
          <span className="progress-text" data-testid="progress-text">
            {progressText(g)}
          </span>
        </div>
      ),
    },
    { header: 'Created', cell: (g) => <span data-testid="generation-created">{formatDateSeconds(g.created_at)}</span> },
    { header: 'Credits', className: 'num', cell: (g) => g.credits_charged - g.credits_refunded },
  ];
}

export function GenerationsScreen() {
  const generations = useAppStore((s) => s.generations);
  const load = useAppStore((s) => s.loadGenerations);
  const cancel = useAppStore((s) => s.cancelGeneration);
  const cancellation = useItemAction(cancel);
  const deletion = useItemAction(useAppStore((s) => s.deleteGeneration));
  const characters = useAppStore((s) => s.characters);
  const templates = useAppStore((s) => s.templates);
  const loadTemplates = useAppStore((s) => s.loadTemplates);
  const selectedId = useAppStore((s) => s.selectedGenerationId);
  const select = useAppStore((s) => s.selectGeneration);
  const [rowError, setRowError] = useState<unknown>(null);

  useEffect(() => {
    void load();
    if (templates.status === 'idle') void loadTemplates();
  }, [load, loadTemplates, templates.status]);

  // No polling: progress, queue places and the end of each generation arrive as app events (App.tsx).
  const active = generations.data.some((g) => g.status === 'generating');

  const titleOf = (id: string) => templates.data.find((t) => t.id === id)?.title ?? id;
  const characterName = (id: string) => characters.data.find((c) => c.id === id)?.name;
  const selected = generations.data.find((g) => g.id === selectedId) ?? null;

  const generationsLoad: ListLoad = { state: generations, noun: 'generations', onRetry: () => void load() };
  return (
    <div className="page page-wide">
      <PageHeader
        title="Generations"
        description={
          active
            ? 'Videos in progress update live as they render.'
            : 'Every video your organization generated, newest first.'
        }
        actions={<RefreshButton load={generationsLoad} />}
      />
      {cancellation.error ? <ApiErrorBanner title="Could not cancel" error={cancellation.error} /> : null}
      {deletion.error ? <ApiErrorBanner title="The generation was not deleted" error={deletion.error} /> : null}
      {rowError ? <ApiErrorBanner title="The generation was not started" error={rowError} /> : null}
      {selected ? (
        <GenerationPlayer generation={selected} title={titleOf(selected.template_id)} onClose={() => select(null)} />
      ) : null}
      <section className="card" aria-label="Generations">
        <DataTable
          label="Generations"
          rows={generations.data}
          rowKey={(g) => g.id}
          rowTestId="generation-row"
          isSelected={(g) => g.id === selectedId}
          columns={generationColumns(titleOf, characterName)}
          load={generationsLoad}
          empty={
            <EmptyState title="No generations yet" testId="generations-empty">
              Start one from Generate; it appears here with its progress.
            </EmptyState>
          }
          actions={(g) => (
            <>
              {g.status === 'completed' && g.video_url ? (
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  onClick={() => select(g.id)}
                  aria-label={`Play ${g.id}`}
                >
                  Play
                </button>
              ) : null}
              {g.status !== 'generating' ? <RegenerateButton generation={g} onError={setRowError} /> : null}
              {g.status !== 'generating' ? (
                <ConfirmButton
                  label="Delete"
                  confirmLabel="Delete now"
                  ariaLabel={`Delete ${g.id}`}
                  busy={deletion.busyId === g.id}
                  onConfirm={() => deletion.run(g.id)}
                />
              ) : null}
              {g.status === 'generating' ? (
                <button
                  type="button"
                  className="btn btn-ghost-danger btn-small"
                  onClick={() => void cancellation.run(g.id)}
                  disabled={cancellation.busyId === g.id}
                  aria-label={`Cancel ${g.id}`}
                >
                  {cancellation.busyId === g.id ? 'Cancelling…' : 'Cancel'}
                </button>
              ) : null}
            </>
          )}
        />
      </section>
    </div>
  );
}
