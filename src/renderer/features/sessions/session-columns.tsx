// Columns of a table of cached sessions, shared by the Sessions screen and a saved login's "Sessions made from it".
import type { SessionSummary } from '../../../shared/ipc-contract.js';
import { NoValue, type Column } from '../../components/DataTable';
import { formatDate, formatRelative, hostOf } from '../../lib/format';

export const SESSION_SITE: Column<SessionSummary> = {
  header: 'Site',
  cell: (s) => (
    <>
      <div className="cell-title">{hostOf(s.origin)}</div>
      <div className="cell-sub">{s.origin}</div>
    </>
  ),
};

export const SESSION_USERNAME: Column<SessionSummary> = {
  header: 'Username',
  cell: (s) => s.username || <NoValue />,
};

export const SESSION_CREATED: Column<SessionSummary> = { header: 'Created', cell: (s) => formatDate(s.created_at) };

export const SESSION_EXPIRES: Column<SessionSummary> = {
  header: 'Expires',
  cellAttributes: (s) => ({ title: formatDate(s.expires_at) }),
  cell: (s) => (s.expires_at ? formatRelative(s.expires_at) : 'No expiry'),
};
