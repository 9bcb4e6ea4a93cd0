import { ApiError } from '../lib/api';

/** An error from the app, with the service's list of problems (validation issues or reasons) when it sent one. */
export function ApiErrorBanner({ title, error }: { title: string; error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  const details = error instanceof ApiError ? error.details : {};
  const issues = Array.isArray(details.issues) ? (details.issues as { path?: string; message?: string }[]) : [];
  const reasons = Array.isArray(details.reasons) ? (details.reasons as unknown[]).map(String) : [];
  const items = [
    ...issues.map((i) => (i.path ? `${i.path}: ${i.message ?? ''}` : (i.message ?? ''))),
    ...reasons,
  ].filter((m) => !message.includes(m));
  return (
    <div className="banner banner-error" role="alert">
      <div>
        {/* Words first; the service's code (upload_in_use, AUTHENTICATION_FAILED) is a footnote for a bug report,
            not the heading. */}
        <strong>{title}</strong>
        <p>{message}</p>
        {items.length ? (
          <ul className="issue-list">
            {items.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        ) : null}
        {error instanceof ApiError ? (
          <p className="error-code-note">
            Code for a bug report: <span className="error-code">{error.code}</span>
          </p>
        ) : null}
      </div>
    </div>
  );
}
