import { useEffect } from 'react';
import { RefreshButton, type ListLoad } from '../../components/ListFrame';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorBanner, Loading, Notice } from '../../components/StatusViews';
import { useAppStore } from '../../stores/app-store';
import { appBoundNote, BROWSER_NAMES } from './profile-format';
import { ProfileSites } from './ProfileSites';
import './browser-profiles.css';

/**
 * Your browsers: the person's own browser profiles on this machine (Chrome, Chromium, Edge, Brave, Firefox), the
 * sites each holds cookies for, and an import of some of them into the session cache, each checked at once.
 * Desktop only: an API key reaches this only with the explicit scope browser-profiles:read.
 */
export function BrowserProfilesScreen() {
  const profiles = useAppStore((s) => s.browserProfiles);
  const load = useAppStore((s) => s.loadBrowserProfiles);
  const selectedId = useAppStore((s) => s.selectedProfileId);
  const select = useAppStore((s) => s.selectProfile);

  useEffect(() => {
    void load();
  }, [load]);

  const listLoad: ListLoad = { state: profiles, noun: 'browser profiles', onRetry: () => void load() };
  const { data: list, roots } = profiles.data;
  const selected = list.find((p) => p.id === selectedId) ?? null;
  return (
    <div className="page browser-profiles-page">
      <PageHeader
        title="Your browsers"
        description="Sessions your own browsers already hold on this computer: import a site’s and agents can use it without logging in again."
        actions={<RefreshButton load={listLoad} />}
      />
      <Notice>
        Imports happen on this machine only: the cookies are read from a copy of the profile and go straight into the
        session cache, never to this window. Agents see an imported session in <code>GET /api/sessions</code> (no cookie
        values); its cookies reach an agent only through a key you granted <code>browser-profiles:read</code> (Settings,
        off by default).
      </Notice>
      <section className="card" aria-labelledby="browser-profiles-title">
        <div className="card-header">
          <h2 id="browser-profiles-title">Browser profiles</h2>
          {profiles.status === 'ready' ? (
            <span className="muted" data-testid="browser-profiles-count">
              {list.length} found
            </span>
          ) : null}
        </div>
        {profiles.status === 'error' ? (
          <ErrorBanner
            title="Could not list the browser profiles"
            message={profiles.error ?? ''}
            onRetry={() => void load()}
          />
        ) : null}
        {profiles.status === 'loading' && list.length === 0 ? <Loading label="Looking for browser profiles…" /> : null}
        {profiles.status === 'ready' && list.length === 0 ? (
          <EmptyState title={`No browser profiles found in ${roots.join(', ')}`} testId="browser-profiles-empty">
            Agent Studio looks for Chrome, Chromium, Edge, Brave and Firefox profiles in their usual folders under these
            home directories. Another home can be added in Settings (<code>browserProfiles.roots</code> in{' '}
            <code>config.json</code>).
          </EmptyState>
        ) : null}
        {list.length ? (
          <ul className="profile-list" aria-label="Browser profiles">
            {list.map((p) => {
              const open = p.id === selectedId;
              return (
                <li key={p.id} className={`profile-item${open ? ' selected' : ''}`} data-testid="browser-profile">
                  <div className="profile-main">
                    <p className="profile-title">
                      {BROWSER_NAMES[p.browser]} <span className="muted">·</span> {p.name}
                    </p>
                    <p className="profile-path mono">{p.path}</p>
                    {appBoundNote(p) ? <p className="muted">{appBoundNote(p)}</p> : null}
                    <p className="profile-sites">
                      {p.error ? (
                        <span className="warning-text">Sites not listed: {p.error}</span>
                      ) : (
                        `${p.origins.length} ${p.origins.length === 1 ? 'site' : 'sites'} with cookies`
                      )}
                    </p>
                  </div>
                  <button
                    type="button"
                    className={`btn btn-small ${open ? 'btn-primary' : 'btn-secondary'}`}
                    aria-pressed={open}
                    onClick={() => select(open ? null : p.id)}
                  >
                    Choose sites
                    <span className="sr-only">
                      {' '}
                      from {BROWSER_NAMES[p.browser]} profile {p.name}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        ) : null}
      </section>
      {selected ? <ProfileSites key={selected.id} profile={selected} /> : null}
    </div>
  );
}
