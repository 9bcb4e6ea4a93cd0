import { useEffect } from 'react';
import type { GenerateResponse } from '../../../shared/ipc-contract.js';
import { StatusBadge } from '../../components/Badge';
import { DataList } from '../../components/DataList';
import { ProgressBar } from '../../components/ProgressBar';
import { Thumbnail } from '../../components/Thumbnail';
import { useAppStore } from '../../stores/app-store';
import { progressText } from '../generations/GenerationPlayer';

/** The generations a request started, moving live (queue place, progress, result) as the app's events arrive. */
export function GenerateResult({ result }: { result: GenerateResponse }) {
  const navigate = useAppStore((s) => s.navigate);
  const track = useAppStore((s) => s.trackGenerations);
  const generations = useAppStore((s) => s.generations.data);
  const ids = result.generations.map((g) => g.generation_id);
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
        <button
          type="button"
          className="btn btn-secondary btn-small"
          onClick={() => navigate('generations', { generationId: ids[0] ?? null })}
        >
          View progress
        </button>
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
          return (
            <>
              <Thumbnail url={g?.thumbnail_url} contentType="image/jpeg" alt={`Preview of ${id}`} size="small" />
              <span className="mono grow">{id}</span>
              {g ? (
                <>
                  <StatusBadge status={g.status} />
                  {g.status === 'generating' ? (
                    <span className="live-progress">
                      <ProgressBar value={g.progress} label={`Progress of ${id}`} />
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
