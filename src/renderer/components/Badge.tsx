import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger';

export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

const STATUS_TONES: Record<string, BadgeTone> = {
  generating: 'accent',
  completed: 'success',
  failed: 'danger',
  canceled: 'warning',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-${STATUS_TONES[status] ?? 'neutral'}`} data-testid="status-badge">
      {status === 'generating' ? <span className="pulse" aria-hidden="true" /> : null}
      {status}
    </span>
  );
}
