import type { ReactNode } from 'react';
import { Icon } from './Icon';

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label} />;
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div className="empty-state" data-testid={testId}>
      {/* An empty tray, not a ring: a ring reads as a spinner, as if something were still loading. */}
      <div className="empty-icon" aria-hidden="true">
        <Icon name="inbox" size={22} />
      </div>
      <p className="empty-title">{title}</p>
      {children ? <div className="empty-body">{children}</div> : null}
    </div>
  );
}

export function ErrorBanner({
  title = 'Something went wrong',
  message,
  onRetry,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
}) {
  return (
    <div className="banner banner-error" role="alert">
      <div>
        <strong>{title}</strong>
        <p>{message}</p>
      </div>
      {onRetry ? (
        <button type="button" className="btn btn-secondary btn-small" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

export function Notice({ tone = 'info', children }: { tone?: 'info' | 'success' | 'warning'; children: ReactNode }) {
  return (
    <div className={`banner banner-${tone}`} role="status">
      <div>{children}</div>
    </div>
  );
}

/**
 * The error / first-load / empty states of a fetched list, in that order. `empty` is shown once
 * the list has loaded with no items.
 */
export function ListStatus({
  list,
  noun,
  onRetry,
  empty,
}: {
  list: { status: string; data: readonly unknown[]; error: string | null };
  noun: string;
  onRetry: () => void;
  empty: ReactNode;
}) {
  return (
    <>
      {list.status === 'error' ? (
        <ErrorBanner title={`Could not load ${noun}`} message={list.error ?? ''} onRetry={onRetry} />
      ) : null}
      {list.status === 'loading' && list.data.length === 0 ? <Loading label={`Loading ${noun}…`} /> : null}
      {list.status === 'ready' && list.data.length === 0 ? empty : null}
    </>
  );
}
