import type { ReactNode } from 'react';

/** One card of the Settings screen, reachable from the section list at the top. */
export function SettingsSection({
  id,
  title,
  description,
  aside,
  children,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card settings-section" id={`settings-${id}`} aria-labelledby={`settings-${id}-title`}>
      <div className="card-header">
        <div>
          <h2 id={`settings-${id}-title`}>{title}</h2>
          {description ? <p className="section-description">{description}</p> : null}
        </div>
        {aside ? <div className="section-aside">{aside}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** "Saving restarts …": what a change of the core's settings does to work in progress. */
export const RESTART_HINT =
  'Saving restarts the local API at once: logins in progress stop, queued renders continue after the restart.';
