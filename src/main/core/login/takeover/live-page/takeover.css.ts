/**
 * The takeover page's stylesheet (served at LIVE_CSS_PATH). Light and dark follow the system; every
 * text/background pair is ≥ 4.5:1; the bar wraps down to 320 px and at 200 % zoom the page scrolls
 * instead of squeezing the live view below a usable height.
 */
export const TAKEOVER_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f3f4f6;
  --bar: #ffffff;
  --text: #16181d;
  --muted: #484e59;
  --border: #8a919c;
  --button: #ffffff;
  --button-text: #16181d;
  --button-hover: #e8eaee;
  --primary: #0b57d0;
  --primary-hover: #0842a0;
  --primary-text: #ffffff;
  --danger: #b3261e;
  --danger-hover: #8c1d18;
  --danger-text: #ffffff;
  --focus: #0b57d0;
  --stage: #dfe2e7;
  --stage-text: #2b3038;
  --urgent: #a3221b;
  --overlay: #16181d;
  --overlay-text: #ffffff;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1115;
    --bar: #1a1d23;
    --text: #e8eaed;
    --muted: #b6bcc6;
    --border: #6b7280;
    --button: #262a32;
    --button-text: #e8eaed;
    --button-hover: #323741;
    --primary: #8ab4f8;
    --primary-hover: #aecbfa;
    --primary-text: #0b1b36;
    --danger: #f2b8b5;
    --danger-hover: #f8d4d2;
    --danger-text: #410e0b;
    --focus: #8ab4f8;
    --stage: #060709;
    --stage-text: #d5d9e0;
    --urgent: #f2b8b5;
    --overlay: #e8eaed;
    --overlay-text: #16181d;
  }
}
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
html { height: 100%; }
body {
  margin: 0;
  height: 100%;
  display: flex;
  flex-direction: column;
  background: var(--bg);
  color: var(--text);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
.sr-only {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0;
}

/* The bar: what to do, where, time left, who controls, Done/Cancel. Wraps on narrow windows. */
.bar {
  flex: none;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 1.25rem;
  padding: 0.6rem 1rem;
  background: var(--bar);
  border-bottom: 1px solid var(--border);
}
.bar:focus { outline: none; }
.task { flex: 1 1 18rem; min-width: 0; }
.task h1 { margin: 0; font-size: 1.05rem; font-weight: 650; line-height: 1.3; }
.where { margin: 0.1rem 0 0; display: flex; gap: 0.5rem; min-width: 0; color: var(--muted); font-size: 0.875rem; }
.site { flex: none; font-weight: 600; color: var(--text); }
.page-url { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.status { flex: 0 1 auto; display: flex; flex-direction: column; align-items: flex-end; min-width: 0; }
.status p { margin: 0; }
.countdown { font-variant-numeric: tabular-nums; font-size: 1.05rem; font-weight: 650; }
.countdown.urgent { color: var(--urgent); }
.viewer-state { color: var(--muted); font-size: 0.875rem; }
.actions { flex: none; display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.confirm { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.confirm span { font-weight: 600; }
button {
  min-height: 2.5rem;
  padding: 0.35rem 1rem;
  border: 1px solid var(--border);
  border-radius: 0.4rem;
  background: var(--button);
  color: var(--button-text);
  font: inherit;
  font-weight: 600;
  cursor: pointer;
}
button:hover { background: var(--button-hover); }
button.primary { background: var(--primary); border-color: var(--primary); color: var(--primary-text); }
button.primary:hover { background: var(--primary-hover); border-color: var(--primary-hover); }
button.danger { background: var(--danger); border-color: var(--danger); color: var(--danger-text); }
button.danger:hover { background: var(--danger-hover); border-color: var(--danger-hover); }
button:disabled { cursor: default; opacity: 0.6; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }

/* The live view: the frame scaled to fit the stage, or to its width where fitting would be unreadable (the script
   sizes #view), focus ring around it. */
main { flex: 1 1 0; min-height: 16rem; display: flex; flex-direction: column; }
.hint { flex: none; margin: 0; padding: 0.35rem 1rem; font-size: 0.8125rem; color: var(--muted); }
kbd {
  font: inherit; font-size: 0.75rem; font-weight: 600; padding: 0 0.3rem;
  border: 1px solid var(--border); border-radius: 0.25rem; background: var(--bar); color: var(--text);
}
.stage {
  position: relative;
  flex: 1 1 0;
  min-height: 0;
  display: grid;
  /* Centred while it fits; a view larger than the stage (kept readable, see fitReadable) starts at its edge and
     the stage scrolls to the rest. */
  place-items: safe center;
  padding: 6px;
  overflow: auto;
  background: var(--stage);
  color: var(--stage-text);
}
.view { position: relative; outline: none; touch-action: none; }
.view:focus, .view:focus-within { outline: 3px solid var(--focus); outline-offset: 2px; }
.view.watching { cursor: not-allowed; }
.view.stale .screen { opacity: 0.55; }
.screen { display: block; width: 100%; height: 100%; background: #fff; touch-action: none; user-select: none; -webkit-user-select: none; }
.keys {
  position: absolute; left: 0; top: 0; width: 1px; height: 1px; padding: 0; border: 0; margin: 0;
  opacity: 0; resize: none; overflow: hidden; font-size: 16px; color: transparent; background: transparent;
  caret-color: transparent; pointer-events: none;
}
.overlay {
  position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); margin: 0;
  padding: 0.6rem 1.1rem; border-radius: 0.5rem; background: var(--overlay); color: var(--overlay-text);
  font-weight: 600; max-width: calc(100% - 2rem); text-align: center;
}
.overlay:empty { display: none; }

/* After the end (or for a link that is over): the outcome in place of the live view. */
.ended { flex: 1 1 auto; display: flex; flex-direction: column; align-items: center; justify-content: center;
  gap: 0.5rem; padding: 2rem 1rem; text-align: center; }
.ended h1 { margin: 0; font-size: 1.4rem; max-width: 36rem; }
.ended h1:focus { outline: none; }
.ended p { margin: 0; max-width: 36rem; color: var(--muted); }
body.over .bar, body.over .hint, body.over .stage { display: none; }
@media (max-width: 40rem) {
  .status { align-items: flex-start; }
  .bar { padding: 0.5rem 0.75rem; }
}
@media (forced-colors: active) {
  .view:focus, .view:focus-within, :focus-visible { outline-color: Highlight; }
}
`;
