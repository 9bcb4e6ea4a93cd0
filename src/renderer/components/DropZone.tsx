import { useState, type ReactNode } from 'react';
import { filesOf } from '../lib/dropped-files';

/**
 * Takes files dropped on it, or pasted while it (or something in it) has the focus. Text pasted into a
 * field inside it stays text: only clipboard items that are files are taken. Focusable, so a person
 * can click it and press Ctrl+V / Cmd+V.
 */
export function DropZone({
  onFiles,
  label,
  disabled = false,
  className = '',
  children,
}: {
  onFiles: (files: File[]) => void;
  /** Names the zone for screen readers ("Drop or paste reference images"). */
  label: string;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const [over, setOver] = useState(false);
  const hasFiles = (types: readonly string[]) => types.includes('Files');
  return (
    <div
      className={`drop-zone${over ? ' drop-zone-over' : ''}${disabled ? ' drop-zone-disabled' : ''} ${className}`}
      role="group"
      aria-label={label}
      tabIndex={0}
      data-testid="drop-zone"
      onDragEnter={(e) => {
        if (disabled || !hasFiles(e.dataTransfer.types)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragOver={(e) => {
        if (disabled || !hasFiles(e.dataTransfer.types)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        setOver(false);
        const files = filesOf(e.dataTransfer);
        if (disabled || !files.length) return;
        e.preventDefault();
        onFiles(files);
      }}
      onPaste={(e) => {
        const files = filesOf(e.clipboardData);
        if (disabled || !files.length) return;
        e.preventDefault();
        onFiles(files);
      }}
    >
      {children}
    </div>
  );
}
