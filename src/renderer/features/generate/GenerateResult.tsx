import { useEffect } from 'react';
import type { GenerateResponse, Generation } from '../../../shared/ipc-contract.js';
import { StatusBadge } from '../../components/Badge';
import { DataList } from '../../components/DataList';
import { ProgressBar } from '../../components/ProgressBar';
import { Thumbnail } from '../../components/Thumbnail';
import { useAppStore } from '../../stores/app-store';
import { firstGivenInput, keyInputs, promptStart } from '../generations/generation-summary';
import { progressText } from '../generations/GenerationPlayer';

/**
 * What a person knows a started video by: in a batch its CSV row and what the row gave ("Row 3 · A red kite…"),
 * otherwise the start of its prompt.
 */
export function generationLabel(g: Generation | undefined, batchIndex: number | undefined): string {
  const row = batchIndex ?? g?.batch_index;
  const inRow = row !== undefined && row !== null;
  const what = g ? ((inRow ? firstGivenInput(g) : null) ?? promptStart(g) ?? (keyInputs(g).join(', ') || null)) : null;
  if (inRow) return what ? `Row ${row + 1} · ${what}` : `Row ${row + 1}`;
  return what ?? 'Video';
}

/** The generations a request started, moving live (queue place, progress, result) as the app's events arrive. */
export function GenerateResult({ result }: { result: GenerateResponse }) {
  const navigate = useAppStore((s) => s.navigate);
  const track = useAppStore((s) => s.trackGenerations);
  const generations = useAppStore((s) => s.generations.data);
  const ids = result.generations.map((g) => g.generation_id);
  const rowOf = new Map(result.generations.map((g) => [g.generation_id, g.batch_index]));
  const key = ids.join(',');

  useEffect(() => {
    void track(key.split(','));
  }, [key, track]);

  // "Started" while any video is being made; once all are over, what became of them.
  const tracked = ids.map((id) => generations.find((x) => x.id === id));
  const over = tracked.every((g) => g && g.status !== 'generating');
  const completed = tracked.filter((g) => g?.status === 'completed').length;
  const summary = !over
    ? { text: 'Started', tone: 'badge-accent' }
    : completed === ids.length
      ? { text: 'Done', tone: 'badge-success' }
      : completed === 0
        ? { text: 'Failed', tone: 'badge-danger' }
        : { text: `Done: ${completed} of ${ids.length}`, tone: 'badge-warning' };
  return (
    <div className="result-panel" role="status" data-testid="generate-result">
      <div className="result-summary">
        <span className={`badge ${summary.tone}`} data-testid="generate-summary">
          {summary.text}
        </span>
        <span>
          {ids.length} generation{ids.length === 1 ? '' : 's'} · {result.credits_charged} credits charged
        </span>
        {/* Progress is shown here and in Generations while it lasts; once all are over there is none to view. */}
        {!over ? (
          <button
            type="button"
            className="btn btn-secondary btn-small"
            onClick={() => navigate('generations', { generationId: ids[0] ?? null })}
          >
            View progress
          </button>
        ) : null}
      </div>
      <DataList
        className="live-generations"
        keepWhenEmpty
        items={ids}
        itemKey={(id) => id}
        itemClassName="live-generation"
        itemTestId="live-generation"
        renderItem={(id) => {
          const g = generations.find((x) => x.id === id);
          const several = ids.length > 1 && rowOf.get(id) === undefined;
          // Several videos of one request without rows: told apart by their place.
          const label = `${generationLabel(g, rowOf.get(id))}${several ? ` (${ids.indexOf(id) + 1} of ${ids.length})` : ''}`;
          return (
            <>
              <span className="live-generation-what">
                <Thumbnail url={g?.thumbnail_url} contentType="image/jpeg" alt={`Preview of ${label}`} size="small" />
                <span className="live-generation-names">
                  <span className="live-generation-label" data-testid="live-generation-label">
                    {label}
                  </span>
                  <span className="mono live-generation-id">{id}</span>
                </span>
              </span>
              {g ? (
                <>
                  <StatusBadge status={g.status} />
                  {g.status === 'generating' ? (
                    <span className="live-progress">
                      <ProgressBar value={g.progress} label={`Progress of ${label}`} />
                      <span className="progress-text">{progressText(g)}</span>
                    </span>
                  ) : null}
                  {g.status === 'completed' ? (
                    <button
                      type="button"
                      className="btn btn-primary btn-small"
                      onClick={() => navigate('generations', { generationId: id })}
                    >
                      Play
                    </button>
                  ) : null}
                  {g.error ? <span className="error-text">{g.error}</span> : null}
                </>
              ) : (
                <span className="muted">Loading…</span>
              )}
            </>
          );
        }}
      />
    </div>
  );
}
