import { useEffect, useRef, useState } from 'react';
import type { Generation } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { StatusBadge } from '../../components/Badge';
import { CopyButton } from '../../components/CopyButton';
import { ProgressBar } from '../../components/ProgressBar';
import { Spinner } from '../../components/StatusViews';
import { invoke } from '../../lib/api';
import { formatDate, formatRelative, formatSeconds, formatTimeSeconds } from '../../lib/format';
import { rendererOf } from '../../lib/renderer-label';
import { focusIntoView } from '../../lib/use-scroll-into-view';
import { RegenerateButton } from './RegenerateButton';

/** Where a generation stands while it waits or renders: its place in the queue, or its progress. */
export function progressText(g: Pick<Generation, 'status' | 'progress' | 'queue_position'>): string {
  if (g.status !== 'generating') return g.status === 'completed' ? '100%' : '';
  if (g.queue_position !== null && g.progress === 0) return `Queued · #${g.queue_position}`;
  return `${Math.round(g.progress)}%`;
}

/** A generation's video with what can be done with it: save it, show it in its folder, copy its link, make it again. */
export function GenerationPlayer({
  generation: g,
  title,
  onClose,
}: {
  generation: Generation;
  title: string;
  onClose: () => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'show' | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Opened from another screen (Play on a Generate result): that screen and its button are gone, so the focus
  // would be on the page's body; it goes to the player's heading instead. Opened from this screen's list, the
  // focus stays on the button that opened it.
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body) focusIntoView(headingRef.current);
  }, [g.id]);

  const run = async (what: 'save' | 'show') => {
    setBusy(what);
    setError(null);
    setNotice(null);
    try {
      if (what === 'save') {
        const res = await invoke('generations:saveVideo', { id: g.id });
        if (res.saved) setNotice(`Saved as ${res.name}.`);
      } else {
        await invoke('generations:showInFolder', { id: g.id });
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  const playable = g.status === 'completed' && g.video_url;
  return (
    <section className="card player-card" aria-label="Video player" data-testid="video-player">
      <div className="card-header">
        <h2 ref={headingRef} tabIndex={-1} className="player-title">
          {title}
        </h2>
        <div className="detail-actions">
          {playable ? (
            <>
              <button
                type="button"
                className="btn btn-primary btn-small"
                onClick={() => void run('save')}
                disabled={busy !== null}
              >
                {busy === 'save' ? 'Saving…' : 'Save video…'}
              </button>
              <button
                type="button"
                className="btn btn-secondary btn-small"
                onClick={() => void run('show')}
                disabled={busy !== null}
              >
                Show in folder
              </button>
              <CopyButton text={g.video_url!} label="Copy link to the video" caption="Copy link" />
            </>
          ) : null}
          {g.status !== 'generating' ? <RegenerateButton generation={g} onError={setError} /> : null}
          <button type="button" className="btn btn-secondary btn-small" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      {playable && g.video_url_expires_at ? (
        // The link is signed for a short time (video.urlTtl): a pasted link stops working after that.
        <p className="field-hint" data-testid="link-expiry">
          {`The video link expires at ${formatTimeSeconds(g.video_url_expires_at)} (${formatRelative(g.video_url_expires_at)}): copy it again after that, or save the video to keep it.`}
        </p>
      ) : null}
      {notice ? (
        <p className="field-hint" role="status">
          {notice}
        </p>
      ) : null}
      {error ? <ApiErrorBanner title="That did not work" error={error} /> : null}
      <div className="player-layout">
        {playable ? (
          <video
            className="player"
            src={g.video_url!}
            poster={g.thumbnail_url ?? undefined}
            controls
            preload="metadata"
            aria-label={`Video ${g.id}`}
          />
        ) : (
          <div className="player player-placeholder">
            {g.status === 'generating' ? (
              <div className="placeholder-body">
                <Spinner label="Rendering" />
                <p data-testid="player-progress">{progressText(g)}</p>
                <ProgressBar value={g.progress} label={`Progress of ${g.id}`} />
              </div>
            ) : (
              <div className="placeholder-body">
                <StatusBadge status={g.status} />
                {g.error ? <p>{g.error}</p> : null}
                {g.files_expired_at ? <p>The video was removed by retention.</p> : null}
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
            <dt>Rendered by</dt>
            <dd data-testid="generation-renderer">
              {rendererOf(g).label}
              {(g as { draft?: boolean }).draft ? ' · draft' : ''}
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
