import { useEffect, useState } from 'react';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { StatusBadge } from '../../components/Badge';
import { PageHeader } from '../../components/PageHeader';
import { ProgressBar } from '../../components/ProgressBar';
import { EmptyState, ListStatus } from '../../components/StatusViews';
import { Thumbnail } from '../../components/Thumbnail';
import { formatDate } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';
import { GenerationPlayer, progressText } from './GenerationPlayer';
import { RegenerateButton } from './RegenerateButton';

export function GenerationsScreen() {
  const generations = useAppStore((s) => s.generations);
  const load = useAppStore((s) => s.loadGenerations);
  const cancel = useAppStore((s) => s.cancelGeneration);
  const templates = useAppStore((s) => s.templates);
  const loadTemplates = useAppStore((s) => s.loadTemplates);
  const selectedId = useAppStore((s) => s.selectedGenerationId);
  const select = useAppStore((s) => s.selectGeneration);
  const [cancelError, setCancelError] = useState<unknown>(null);
  const [rowError, setRowError] = useState<unknown>(null);
  const [cancelling, setCancelling] = useState<string | null>(null);

  useEffect(() => {
    void load();
    if (templates.status === 'idle') void loadTemplates();
  }, [load, loadTemplates, templates.status]);

  // No polling: progress, queue places and the end of each generation arrive as app events (App.tsx).
  const active = generations.data.some((g) => g.status === 'generating');

  const titleOf = (id: string) => templates.data.find((t) => t.id === id)?.title ?? id;
  const selected = generations.data.find((g) => g.id === selectedId) ?? null;

  const doCancel = async (id: string) => {
    setCancelling(id);
    setCancelError(null);
    try {
      await cancel(id);
    } catch (err) {
      setCancelError(err);
    } finally {
      setCancelling(null);
    }
  };

  return (
    <div className="page page-wide">
      <PageHeader
        title="Generations"
        description={
          active
            ? 'Videos in progress update live as they render.'
            : 'Every video your organization generated, newest first.'
        }
        actions={
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void load()}
            disabled={generations.status === 'loading'}
          >
            Refresh
          </button>
        }
      />
      {cancelError ? <ApiErrorBanner title="Could not cancel" error={cancelError} /> : null}
      {rowError ? <ApiErrorBanner title="The generation was not started" error={rowError} /> : null}
      {selected ? (
        <GenerationPlayer generation={selected} title={titleOf(selected.template_id)} onClose={() => select(null)} />
      ) : null}
      <section className="card" aria-label="Generations">
        <ListStatus
          list={generations}
          noun="generations"
          onRetry={() => void load()}
          empty={
            <EmptyState title="No generations yet" testId="generations-empty">
              Start one from Generate; it appears here with its progress.
            </EmptyState>
          }
        />
        {generations.data.length > 0 ? (
          <div className="table-wrap">
            <table className="table" aria-label="Generations">
              <thead>
                <tr>
                  <th scope="col" className="col-thumb">
                    <span className="sr-only">Preview</span>
                  </th>
                  <th scope="col">Template</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="col-progress">
                    Progress
                  </th>
                  <th scope="col">Created</th>
                  <th scope="col" className="num">
                    Credits
                  </th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {generations.data.map((g) => (
                  <tr
                    key={g.id}
                    data-testid="generation-row"
                    className={selectedId === g.id ? 'row-selected' : undefined}
                  >
                    <td className="col-thumb">
                      <Thumbnail
                        url={g.thumbnail_url}
                        contentType="image/jpeg"
                        alt={`Preview of ${g.id}`}
                        size="small"
                      />
                    </td>
                    <td>
                      <div className="cell-title">{titleOf(g.template_id)}</div>
                      <div className="cell-sub mono">{g.id}</div>
                    </td>
                    <td>
                      <StatusBadge status={g.status} />
                      {g.error ? <div className="cell-sub error-text">{g.error}</div> : null}
                    </td>
                    <td className="col-progress">
                      <div className="progress-cell">
                        <ProgressBar
                          value={g.status === 'completed' ? 100 : g.progress}
                          label={`Progress of ${g.id}`}
                          tone={
                            g.status === 'failed'
                              ? 'danger'
                              : g.status === 'completed'
                                ? 'success'
                                : g.status === 'canceled'
                                  ? 'muted'
                                  : 'accent'
                          }
                        />
                        <span className="progress-text" data-testid="progress-text">
                          {progressText(g)}
                        </span>
                      </div>
                    </td>
                    <td>{formatDate(g.created_at)}</td>
                    <td className="num">{g.credits_charged - g.credits_refunded}</td>
                    <td className="actions">
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
                      {g.status === 'generating' ? (
                        <button
                          type="button"
                          className="btn btn-ghost-danger btn-small"
                          onClick={() => void doCancel(g.id)}
                          disabled={cancelling === g.id}
                          aria-label={`Cancel ${g.id}`}
                        >
                          {cancelling === g.id ? 'Cancelling…' : 'Cancel'}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </div>
  );
}
