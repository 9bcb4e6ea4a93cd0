import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * The editor's draft preview as it plays: muted, looping, with no native controls over the picture (at 320 or
 * 640 px they covered the draft's title text, which is what a preview is looked at for). Play and pause are a
 * button below it.
 */
export function PreviewPlayer({
  url,
  frameClassName,
  children,
}: {
  url: string | null;
  frameClassName: string;
  /** What is said over the frame (rendering, why there is no preview). */
  children: ReactNode;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  // What the video does, as it reports it (autoplay may be refused or late): the button says the truth.
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    const v = ref.current;
    if (!v) return;
    const sync = () => setPlaying(!v.paused);
    sync();
    v.addEventListener('play', sync);
    v.addEventListener('pause', sync);
    return () => {
      v.removeEventListener('play', sync);
      v.removeEventListener('pause', sync);
    };
  }, [url]);
  return (
    <div className="preview-player">
      <div className={frameClassName} aria-live="polite">
        {url ? (
          <video
            ref={ref}
            key={url}
            data-testid="draft-preview"
            src={url}
            autoPlay
            muted
            loop
            playsInline
            aria-label="Draft preview"
          />
        ) : null}
        {children}
      </div>
      {url ? (
        <button
          type="button"
          className="btn btn-secondary btn-small preview-toggle"
          onClick={() => {
            const v = ref.current;
            if (!v) return;
            if (playing) v.pause();
            else void v.play().catch(() => undefined);
          }}
        >
          {playing ? 'Pause preview' : 'Play preview'}
        </button>
      ) : null}
    </div>
  );
}
