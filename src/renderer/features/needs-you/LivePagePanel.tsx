// One waiting login's live page inside the window: the same page any browser gets from the takeover URL (the
// local API serves it and lets this window's origin frame it, config login.livePageEmbedders), in a frame as
// wide as the content and as tall as the window allows. The page fits the remote browser to the frame itself.
import { useEffect, useRef } from 'react';
import { bringIntoView } from '../../lib/use-scroll-into-view';
import type { WaitingLogin } from '../../stores/login-help.slice';

export const LIVE_PAGE_PANEL_ID = 'live-page-panel';

export function LivePagePanel({ login, onHide }: { login: WaitingLogin; onHide: () => void }) {
  const panelRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Opened by the person: it comes into view and takes the focus (its heading, so Tab goes on to Hide, then
  // into the page).
  useEffect(() => {
    if (panelRef.current) bringIntoView(panelRef.current, { start: true });
    headingRef.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section
      ref={panelRef}
      id={LIVE_PAGE_PANEL_ID}
      className="live-page-panel"
      aria-labelledby="live-page-title"
      data-testid="live-page-panel"
      onKeyDown={(e) => {
        // Keys typed in the live page stay in its frame; Esc out here (the heading, Hide) closes the panel.
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault();
          onHide();
        }
      }}
    >
      <div className="live-page-head">
        {/* What to do, the time left, Done and Cancel are on the live page itself. */}
        <h2 id="live-page-title" className="live-page-heading" ref={headingRef} tabIndex={-1}>
          Finish signing in to {login.site}
        </h2>
        <button type="button" className="btn btn-secondary btn-small" onClick={onHide}>
          Hide
        </button>
      </div>
      <LiveFrame url={login.takeoverUrl} title={`Live page of ${login.site}`} />
    </section>
  );
}

/**
 * The frame, navigated from script: the address carries the page's token after '#', so it is handed to the
 * frame's navigation only and never written into the document (no src attribute to read or copy). The page
 * then drops the token from its own address.
 */
function LiveFrame({ url, title }: { url: string; title: string }) {
  const ref = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    ref.current?.contentWindow?.location.replace(url);
  }, [url]);
  return (
    <iframe
      ref={ref}
      className="live-page-frame"
      title={title}
      // Its own origin (the local API) for its script and calls; no popups, top navigation or forms.
      sandbox="allow-scripts allow-same-origin"
      referrerPolicy="no-referrer"
    />
  );
}
