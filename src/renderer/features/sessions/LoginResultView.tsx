import { useState } from 'react';
import { formatCookieExpiry } from '../../lib/format';
import type { SessionRequest } from '../../lib/snippets';
import type { LoginTestResult } from '../../stores/login-runs.slice';
import { SessionExports } from './SessionExports';

export type { LoginTestResult };

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
      {result.cookies.length > 0 ? (
        <div className="table-wrap">
          <table className="table table-compact" aria-label="Session cookies">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                <th scope="col">Domain</th>
                <th scope="col">Path</th>
                <th scope="col">Expires</th>
                <th scope="col">Flags</th>
              </tr>
            </thead>
            <tbody>
              {result.cookies.map((c) => (
                <tr key={`${c.domain}|${c.path}|${c.name}`}>
                  <td className="mono">{c.name}</td>
                  <td className="mono cookie-value" data-testid="cookie-value">
                    {revealed ? c.value : '••••••••'}
                  </td>
                  <td>{c.domain}</td>
                  <td className="mono">{c.path}</td>
                  <td>{formatCookieExpiry(c.expires)}</td>
                  <td className="flags">
                    {c.httpOnly ? <span className="badge badge-neutral">HttpOnly</span> : null}
                    {c.secure ? <span className="badge badge-neutral">Secure</span> : null}
                    <span className="badge badge-neutral">{c.sameSite}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
