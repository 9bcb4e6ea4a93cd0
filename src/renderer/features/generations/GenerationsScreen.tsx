import { useEffect, useState } from 'react';
import type { Generation } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { StatusBadge } from '../../components/Badge';
import { PageHeader } from '../../components/PageHeader';
import { ProgressBar } from '../../components/ProgressBar';
import { EmptyState, ListStatus, Spinner } from '../../components/StatusViews';
import { formatDate, formatSeconds } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';

/** The UI talks to a local service, so it can poll faster than the 10-30 s advised to remote agents. */
const POLL_MS = 2000;

export function GenerationsScreen() {
  const generations = useAppStore((s) => s.generations);
  const load = useAppStore((s) => s.loadGenerations);
  const cancel = useAppStore((s) => s.cancelGeneration);
  const templates = useAppStore((s) => s.templates);
  const loadTemplates = useAppStore((s) => s.loadTemplates);
  const selectedId = useAppStore((s) => s.selectedGenerationId);
  const select = useAppStore((s) => s.selectGeneration);
  const [cancelError, setCancelError] = useState<unknown>(null);
  const [cancelling, setCancelling] = useState<string | null>(null);

  useEffect(() => {
    void load();
    if (templates.status === 'idle') void loadTemplates();
  }, [load, loadTemplates, templates.status]);

  const active = generations.data.some((g) => g.status === 'generating');
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => void load({ quiet: true }), POLL_MS);
    return () => clearInterval(t);
  }, [active, load]);

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
            ? 'Videos in progress update every few seconds.'
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
                        <span className="progress-text">
                          {g.status === 'completed' ? 100 : Math.round(g.progress)}%
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

function GenerationPlayer({
  generation: g,
  title,
  onClose,
}: {
  generation: Generation;
  title: string;
  onClose: () => void;
}) {
  return (
    <section className="card player-card" aria-label="Video player" data-testid="video-player">
      <div className="card-header">
        <h2>{title}</h2>
        <button type="button" className="btn btn-secondary btn-small" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="player-layout">
        {g.status === 'completed' && g.video_url ? (
          <video className="player" src={g.video_url} controls preload="metadata" aria-label={`Video ${g.id}`} />
        ) : (
          <div className="player player-placeholder">
            {g.status === 'generating' ? (
              <div className="placeholder-body">
                <Spinner label="Rendering" />
                <p>Rendering… {Math.round(g.progress)}%</p>
                <ProgressBar value={g.progress} label={`Progress of ${g.id}`} />
              </div>
            ) : (
              <div className="placeholder-body">
                <StatusBadge status={g.status} />
                {g.error ? <p>{g.error}</p> : null}
              </div>
            )}
          </div>
        )}
        <dl className="stats stats-column">
          <div>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={g.status} />
            </dd>
          </div>
          <div>
            <dt>Model</dt>
            <dd>
              {g.model} · {g.resolution} · {formatSeconds(g.duration_sec)}
            </dd>
          </div>
          {g.prompt ? (
            <div>
              <dt>Prompt</dt>
              <dd className="prompt-inline">{g.prompt}</dd>
            </div>
          ) : null}
          <div>
            <dt>Finished</dt>
            <dd>{formatDate(g.finished_at)}</dd>
          </div>
        </dl>
      </div>
    </section>
  );
}
