import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { formatCookieExpiry } from '../../lib/format';
import type { SessionRequest } from '../../lib/snippets';
import type { LoginTestResult } from '../../stores/login-runs.slice';
import { SessionExports } from './SessionExports';

export type { LoginTestResult };

type Cookie = LoginTestResult['cookies'][number];

/** The cookie table's columns; values stay masked until `revealed`. */
function cookieColumns(revealed: boolean): Column<Cookie>[] {
  return [
    { header: 'Name', cellClassName: 'mono', cell: (c) => c.name },
    {
      header: 'Value',
      cellClassName: 'mono cookie-value',
      cellAttributes: () => ({ 'data-testid': 'cookie-value' }),
      cell: (c) => (revealed ? c.value : '••••••••'),
    },
    { header: 'Domain', cell: (c) => c.domain },
    { header: 'Path', cellClassName: 'mono', cell: (c) => c.path },
    { header: 'Expires', cell: (c) => formatCookieExpiry(c.expires) },
    {
      header: 'Flags',
      cellClassName: 'flags',
      cell: (c) => (
        <>
          {c.httpOnly ? <span className="badge badge-neutral">HttpOnly</span> : null}
          {c.secure ? <span className="badge badge-neutral">Secure</span> : null}
          <span className="badge badge-neutral">{c.sameSite}</span>
        </>
      ),
    },
  ];
}

/**
 * Metadata of a login result; cookie values stay masked until the user asks to reveal them. With the
 * request it came from, the export buttons hand the session to an agent.
 */
export function LoginResultView({ result, request }: { result: LoginTestResult; request?: SessionRequest }) {
  const [revealed, setRevealed] = useState(false);
  const localStorageCount = result.origins.reduce((n, o) => n + o.localStorage.length, 0);
  return (
    <div className="result-panel" data-testid="login-result">
      <div className="result-summary" role="status">
        <span className="badge badge-success">Logged in</span>
        <dl className="stats">
          <div>
            <dt>Cookies</dt>
            <dd>{result.cookies.length}</dd>
          </div>
          <div>
            <dt>Origins with storage</dt>
            <dd>
              {result.origins.length} ({localStorageCount} keys)
            </dd>
          </div>
          <div>
            <dt>Source</dt>
            <dd>{result.from_cache ? 'Cache' : 'Fresh browser login'}</dd>
          </div>
          <div>
            <dt>Took</dt>
            <dd>{(result.duration_ms / 1000).toFixed(1)} s</dd>
          </div>
        </dl>
        <button
          type="button"
          className="btn btn-secondary btn-small"
          aria-pressed={revealed}
          onClick={() => setRevealed((r) => !r)}
        >
          {revealed ? 'Hide values' : 'Reveal values'}
        </button>
      </div>
      {request ? (
        <SessionExports request={request} state={{ cookies: result.cookies, origins: result.origins }} />
      ) : null}
      <DataTable
        label="Session cookies"
        compact
        rows={result.cookies}
        rowKey={(c) => `${c.domain}|${c.path}|${c.name}`}
        columns={cookieColumns(revealed)}
      />
    </div>
  );
}
