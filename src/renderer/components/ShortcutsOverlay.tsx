import { useEffect, useRef } from 'react';
import { shortcutDocs } from '../lib/shortcuts';

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
        <table className="table table-compact shortcuts-table" aria-label="Keyboard shortcuts">
          <tbody>
            {shortcutDocs().map((s) => (
              <tr key={s.does}>
                <td className="shortcut-keys">
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 ? <span aria-hidden="true"> + </span> : null}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{s.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
