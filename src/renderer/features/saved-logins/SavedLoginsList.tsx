import type { SavedLogin } from '../../../shared/credentials.schema.js';
import type { LoginMethodInfo } from '../../../shared/ipc-contract.js';
import { DataTable, NoValue, type Column } from '../../components/DataTable';
import type { ListLoad } from '../../components/ListFrame';
import { EmptyState } from '../../components/StatusViews';
import { formatDate, formatRelative, hostOf } from '../../lib/format';
import { useDraft } from '../../lib/use-draft';
import { matchesSearch, methodLabel, SECRET_NAMES, sharedWithText } from './saved-login-format';
import { stacked } from './stacked-columns';

const SECRET_SHORT: Record<SavedLogin['secrets'][number], string> = {
  password: 'Password',
  totpSecret: 'TOTP',
  additionalFields: 'Fields',
  notes: 'Notes',
};

function columnsFor(methods: readonly LoginMethodInfo[]): Column<SavedLogin>[] {
  return stacked<SavedLogin>([
    { header: 'Label', cellClassName: 'cell-title', cell: (s) => s.label },
    {
      header: 'Site',
      cell: (s) => (
        <>
          <div>{hostOf(s.origins[0] ?? s.loginUrl)}</div>
          <div className="cell-sub">{s.origins[0] ?? s.loginUrl}</div>
        </>
      ),
    },
    { header: 'Username', cell: (s) => s.username || <NoValue /> },
    {
      header: 'Method',
      cell: (s) => <span className="badge badge-neutral">{methodLabel(s.loginMethod, methods)}</span>,
    },
    {
      header: 'Secrets',
      cell: (s) =>
        s.secrets.length ? (
          <span className="secret-badges">
            <span className="sr-only">{s.secrets.map((x) => SECRET_NAMES[x]).join(', ')}</span>
            {s.secrets.map((x) => (
              <span key={x} className="badge badge-accent" aria-hidden="true">
                {SECRET_SHORT[x]}
              </span>
            ))}
          </span>
        ) : (
          <NoValue text="None" />
        ),
    },
    { header: 'Shared with', cell: (s) => sharedWithText(s.shareWith) },
    {
      header: 'Last used',
      cellAttributes: (s) => ({ title: s.last_used_at ? formatDate(s.last_used_at) : undefined }),
      cell: (s) => (s.last_used_at ? formatRelative(s.last_used_at) : <NoValue text="Never" />),
    },
  ]);
}

/** The saved logins with a search over label, site and username; an empty state that says what they are for. */
export function SavedLoginsList({
  rows,
  load,
  methods,
  onOpen,
  onAdd,
  onImport,
}: {
  rows: readonly SavedLogin[];
  load: ListLoad;
  methods: readonly LoginMethodInfo[];
  onOpen: (id: string) => void;
  onAdd: () => void;
  onImport: () => void;
}) {
  const [query, setQuery] = useDraft('saved-logins:search', '');
  const shown = rows.filter((s) => matchesSearch(s, query));
  const hasAny = rows.length > 0;
  return (
    <section className="card" aria-labelledby="saved-logins-list-title">
      <div className="card-header">
        <h2 id="saved-logins-list-title" tabIndex={-1}>
          All saved logins
        </h2>
        {load.state.status === 'ready' ? (
          <span className="muted" role="status" data-testid="saved-logins-count">
            {query.trim() ? `${shown.length} of ${rows.length}` : `${rows.length} saved`}
          </span>
        ) : null}
      </div>
      {hasAny ? (
        <div className="toolbar">
          <input
            type="search"
            className="search"
            aria-label="Search saved logins by label, site or username"
            placeholder="Search by label, site or username"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
      ) : null}
      <DataTable
        label="Saved logins"
        className="stack-table"
        rows={shown}
        rowKey={(s) => s.id}
        rowTestId="saved-login-row"
        columns={columnsFor(methods)}
        load={load}
        empty={
          hasAny ? (
            <EmptyState title="No saved login matches" testId="saved-logins-no-match">
              Nothing has “{query.trim()}” in its label, site or username.
            </EmptyState>
          ) : (
            <EmptyState title="No saved logins yet" testId="saved-logins-empty">
              <p>
                Save a site’s login once: agents log in by its name and never see the password (
                <code>{'{"credential": "Acme"}'}</code> in <code>POST /api/login</code>). The use log shows who used it.
              </p>
              <div className="empty-actions">
                <button type="button" className="btn btn-primary" onClick={onAdd}>
                  Add a saved login
                </button>
                <button type="button" className="btn btn-secondary" onClick={onImport}>
                  Import from a file
                </button>
              </div>
            </EmptyState>
          )
        }
        actions={(s) => (
          <button
            type="button"
            className="btn btn-secondary btn-small"
            aria-label={`Open ${s.label}`}
            data-open-id={s.id}
            onClick={() => onOpen(s.id)}
          >
            Open
          </button>
        )}
      />
    </section>
  );
}
