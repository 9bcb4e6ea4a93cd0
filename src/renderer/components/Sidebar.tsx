import type { Screen } from '../stores/nav.slice';
import { Icon, type IconName } from './Icon';
import { useAppStore } from '../stores/app-store';

const ITEMS: { screen: Screen; label: string; icon: IconName; group: string }[] = [
  { screen: 'sessions', label: 'Sessions', icon: 'key', group: 'Login service' },
  { screen: 'templates', label: 'Templates', icon: 'grid', group: 'Video service' },
  { screen: 'generate', label: 'Generate', icon: 'sparkle', group: 'Video service' },
  { screen: 'generations', label: 'Generations', icon: 'play', group: 'Video service' },
  { screen: 'characters', label: 'Characters', icon: 'users', group: 'Video service' },
  { screen: 'uploads', label: 'Uploads', icon: 'upload', group: 'Video service' },
];

export function Sidebar() {
  const screen = useAppStore((s) => s.screen);
  const navigate = useAppStore((s) => s.navigate);
  const info = useAppStore((s) => s.appInfo);
  const groups = [...new Set(ITEMS.map((i) => i.group))];
  return (
    <aside className="sidebar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          A
        </span>
        <span className="brand-name">Agent Studio</span>
      </div>
      <nav aria-label="Main">
        {groups.map((group) => (
          <div key={group} className="nav-group">
            <p className="nav-group-title">{group}</p>
            <ul>
              {ITEMS.filter((i) => i.group === group).map((item) => (
                <li key={item.screen}>
                  <button
                    type="button"
                    className={`nav-item${screen === item.screen ? ' active' : ''}`}
                    aria-current={screen === item.screen ? 'page' : undefined}
                    onClick={() => navigate(item.screen)}
                  >
                    <Icon name={item.icon} className="nav-icon" />
                    {item.label}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <div className="sidebar-footer" data-testid="server-status">
        {info ? (
          <>
            <div className="server-line">
              <span className={`dot ${info.serverUrl ? 'dot-ok' : 'dot-bad'}`} aria-hidden="true" />
              <span>{info.serverUrl ? 'Agent API running' : 'Agent API offline'}</span>
            </div>
            {info.serverUrl ? <code className="server-url">{info.serverUrl}</code> : null}
            <span className="version">v{info.version}</span>
          </>
        ) : (
          <span className="version">Connecting…</span>
        )}
      </div>
    </aside>
  );
}
