import { useState, type FormEvent } from 'react';
import type { BrowserProfile } from '../../../shared/browser-profiles.schema.js';
import { useAppStore } from '../../stores/app-store';
import { ImportResults } from './ImportResults';
import { BROWSER_NAMES, originOf } from './profile-format';

/**
 * One profile's sites: a search, a checkbox per site and, for each chosen one, the page the session check opens
 * (it must need the session: a site's home page often does not). Then the import and its outcome.
 */
export function ProfileSites({ profile }: { profile: BrowserProfile }) {
  const run = useAppStore((s) => s.profileImport);
  const importFrom = useAppStore((s) => s.importFromProfile);
  const [query, setQuery] = useState('');
  // Chosen origins and the page to check for each ('' = the site's home page).
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const q = query.trim().toLowerCase();
  const shown = profile.origins.filter((o) => o.toLowerCase().includes(q));
  const picked = Object.keys(chosen);
  const busy = run?.status === 'running';
  const title = `${BROWSER_NAMES[profile.browser]} · ${profile.name}`;

  const toggle = (origin: string, on: boolean) => {
    setProblem(null);
    setChosen(({ [origin]: _gone, ...rest }) => (on ? { ...rest, [origin]: _gone ?? '' } : rest));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const sites: string[] = [];
    for (const origin of picked) {
      const page = chosen[origin].trim();
      if (page && originOf(page) !== origin) {
        setProblem(`The page to check for ${origin} must be an address on that site (${origin}/…).`);
        return;
      }
      sites.push(page || `${origin}/`);
    }
    setProblem(null);
    void importFrom(profile.id, sites);
  };

  return (
    <section className="card" aria-labelledby="profile-sites-title" data-testid="profile-sites">
      <div className="card-header">
        <h2 id="profile-sites-title">Sites in {title}</h2>
        <span className="muted" role="status">
          {picked.length} of {profile.origins.length} chosen
        </span>
      </div>
      {profile.origins.length === 0 ? (
        <p className="muted" data-testid="profile-no-sites">
          {profile.error
            ? `The sites could not be listed (${profile.error}). Close the browser and refresh.`
            : 'This profile holds no cookies yet: sign in to a site in that browser, close it, and refresh.'}
        </p>
      ) : (
        <form className="profile-sites-form" onSubmit={submit} aria-label={`Import from ${title}`} data-primary-form>
          <input
            type="search"
            className="search"
            aria-label="Search the profile’s sites"
            placeholder="Search sites"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          {/* Said before anything is ticked: the check's page decides whether a session counts as signed in. */}
          <p className="field-hint site-check-explained" id="site-check-explained">
            Each site you tick is checked by opening one of its pages with the imported session. A home page often opens
            signed out too, so a signed-in session can look signed out: for each ticked site, give a{' '}
            <strong>page that needs you signed in</strong> (your account or inbox page).
          </p>
          <fieldset className="site-choices" aria-describedby="site-check-explained">
            <legend className="sr-only">Sites to import</legend>
            {shown.length === 0 ? <p className="muted">No site has “{query.trim()}” in its address.</p> : null}
            <ul className="plain-list">
              {shown.map((origin) => {
                const on = origin in chosen;
                const pageId = `check-${origin.replace(/[^a-z0-9]/gi, '-')}`;
                return (
                  <li key={origin} className="site-choice" data-testid="profile-site">
                    <label className="checkbox">
                      <input type="checkbox" checked={on} onChange={(e) => toggle(origin, e.target.checked)} />
                      <span className="break-anywhere">{origin}</span>
                    </label>
                    {on ? (
                      <div className="site-check-page">
                        <label htmlFor={pageId}>Page that needs you signed in (optional)</label>
                        <input
                          id={pageId}
                          aria-describedby={`${pageId}-hint`}
                          type="url"
                          placeholder={`${origin}/`}
                          value={chosen[origin]}
                          onChange={(e) => setChosen((c) => ({ ...c, [origin]: e.target.value }))}
                        />
                        <span className="field-hint" id={`${pageId}-hint`}>
                          Left empty, the check opens {origin}/.
                        </span>
                      </div>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </fieldset>
          {problem ? (
            <p className="error-text" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={picked.length === 0 || busy}>
              {busy ? 'Importing and checking…' : 'Import sessions'}
            </button>
            <span className="muted">Each session is checked on its site at once.</span>
          </div>
        </form>
      )}
      {run && run.profileId === profile.id ? <ImportResults run={run} /> : null}
    </section>
  );
}
