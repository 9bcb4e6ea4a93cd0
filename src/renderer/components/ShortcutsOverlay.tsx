import { useEffect, useRef } from 'react';
import { shortcutDocs, type ShortcutDoc } from '../lib/shortcuts';
import { DataTable, type Column } from './DataTable';

const SHORTCUT_COLUMNS: Column<ShortcutDoc>[] = [
  {
    header: 'Keys',
    cellClassName: 'shortcut-keys',
    cell: (s) =>
      s.keys.map((k, i) => (
        <span key={k}>
          {i > 0 ? <span aria-hidden="true"> + </span> : null}
          <kbd>{k}</kbd>
        </span>
      )),
  },
  { header: 'Does', cell: (s) => s.does },
];

/** The keyboard shortcuts, as a modal dialog (opened with ? or F1, or the sidebar's keyboard button). */
export function ShortcutsOverlay({ onClose }: { onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    return () => before?.focus?.();
  }, []);
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        data-testid="shortcuts-overlay"
        onKeyDown={(e) => {
          // Keep Tab inside the dialog: its only control is the close button.
          if (e.key === 'Tab') {
            e.preventDefault();
            closeRef.current?.focus();
          }
        }}
      >
        <div className="dialog-header">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <button ref={closeRef} type="button" className="btn btn-secondary btn-small" onClick={onClose}>
            Close
          </button>
        </div>
        <DataTable
          label="Keyboard shortcuts"
          bare
          compact
          className="shortcuts-table"
          rows={shortcutDocs()}
          rowKey={(s) => s.does}
          columns={SHORTCUT_COLUMNS}
        />
      </div>
    </div>
  );
}
