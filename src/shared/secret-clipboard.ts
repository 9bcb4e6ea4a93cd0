/**
 * How long a saved login's secret copied by the app stays on the clipboard (main's secret copier takes it off then,
 * unless something else was copied since), and how long a revealed secret stays on screen before it is hidden again.
 * Declared here so the window says the same times the app keeps.
 */
export const SECRET_ON_CLIPBOARD_MS = 30_000;
export const SECRET_REVEALED_MS = 30_000;
