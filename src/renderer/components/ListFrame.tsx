import type { ReactNode } from 'react';
import type { Loadable } from '../stores/loadable';
import { ListStatus } from './StatusViews';

/** A list fetched from the app: its load state, the noun its messages use, and how to fetch it again. */
export interface ListLoad {
  state: Pick<Loadable<unknown>, 'status' | 'error'>;
  /** Plural, as in "Loading sessions…" and "Could not load sessions". */
  noun: string;
  onRetry: () => void;
}

/**
 * What DataTable and DataList share: the rows (children) show only when there are some. A fetched list
 * (`load`) first shows its error / first-load / empty states above them, as every list screen did by
 * hand; a plain one shows `empty` in place of the rows.
 */
export function ListFrame({
  rows,
  load,
  empty,
  keepWhenEmpty = false,
  children,
}: {
  rows: readonly unknown[];
  load?: ListLoad;
  empty?: ReactNode;
  /** Render the (empty) list element anyway, for lists whose container must always be there. */
  keepWhenEmpty?: boolean;
  children: ReactNode;
}) {
  const list = rows.length > 0 || keepWhenEmpty ? children : null;
  if (!load) return <>{rows.length > 0 ? list : (empty ?? list)}</>;
  return (
    <>
      <ListStatus
        list={{ status: load.state.status, error: load.state.error, data: rows }}
        noun={load.noun}
        onRetry={load.onRetry}
        empty={empty ?? null}
      />
      {list}
    </>
  );
}

/** The page header's Refresh for a fetched list; disabled while a fetch is under way. */
export function RefreshButton({ load }: { load: Pick<ListLoad, 'state' | 'onRetry'> }) {
  return (
    <button
      type="button"
      className="btn btn-secondary"
      onClick={load.onRetry}
      disabled={load.state.status === 'loading'}
    >
      Refresh
    </button>
  );
}
