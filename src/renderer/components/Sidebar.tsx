import { useEffect, useRef, useState } from 'react';
import type { ApiStatus } from '../../shared/ipc-contract.js';
import { modKeyName, SCREEN_ORDER } from '../lib/shortcuts';
import type { Screen } from '../stores/nav.slice';
import { useAppStore } from '../stores/app-store';
import { CopyButton } from './CopyButton';
import { Icon, type IconName } from './Icon';

const ITEMS: { screen: Screen; label: string; icon: IconName; group: string }[] = [
  { screen: 'sessions', label: 'Sessions', icon: 'key', group: 'Login service' },
  { screen: 'saved-logins', label: 'Saved logins', icon: 'lock', group: 'Login service' },
  { screen: 'browser-profiles', label: 'Your browsers', icon: 'globe', group: 'Login service' },
  { screen: 'templates', label: 'Templates', icon: 'grid', group: 'Video service' },
  { screen: 'generate', label: 'Generate', icon: 'sparkle', group: 'Video service' },
  { screen: 'generations', label: 'Generations', icon: 'play', group: 'Video service' },
  { screen: 'characters', label: 'Characters', icon: 'users', group: 'Video service' },
  { screen: 'uploads', label: 'Uploads', icon: 'upload', group: 'Video service' },
  { screen: 'settings', label: 'Settings', icon: 'settings', group: 'App' },
];

/** How often the sidebar asks whether the agents' API answers. */
const STATUS_POLL_MS = 5000;

const shortcutOf = (screen: Screen) => {
  const i = SCREEN_ORDER.findIndex((s) => s.screen === screen);
  return i < 0 ? undefined : `${modKeyName()}+${i + 1}`;
};

export function Sidebar({ onShowShortcuts }: { onShowShortcuts: () => void }) {
  const screen = useAppStore((s) => s.screen);
  const navigate = useAppStore((s) => s.navigate);
  const info = useAppStore((s) => s.appInfo);
  const groups = [...new Set(ITEMS.map((i) => i.group))];
  // Below ~700 px the navigation folds behind a menu button (a disclosure); wider, the button is hidden by CSS
  // and the navigation always shows, so `menuOpen` only matters in the narrow layout.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeMenu = (refocus: boolean) => {
    setMenuOpen(false);
    if (refocus) menuButton.current?.focus();
  };
  return (
    <aside
      className={`sidebar${menuOpen ? ' menu-open' : ''}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && menuOpen) {
          e.stopPropagation();
          closeMenu(true);
        }
      }}
    >
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          A
        </span>
        <span className="brand-name">Agent Studio</span>
        <button
          ref={menuButton}
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="sidebar-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Icon name={menuOpen ? 'close' : 'menu'} />
          Menu
        </button>
      </div>
      <nav aria-label="Main" id="sidebar-menu" className="sidebar-menu">
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
                    aria-keyshortcuts={shortcutOf(item.screen)?.replace('⌘', 'Meta').replace('Ctrl', 'Control')}
                    // The label too: with icons only, the tooltip is how the eye reads the item.
                    title={shortcutOf(item.screen) ? `${item.label} (${shortcutOf(item.screen)})` : item.label}
                    onClick={() => {
                      navigate(item.screen);
                      closeMenu(false);
                    }}
                  >
                    <Icon name={item.icon} className="nav-icon" />
                    {/* Hidden visually (not from screen readers) when the sidebar shows icons only. */}
                    <span className="nav-label">{item.label}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <div className="sidebar-footer">
        <ApiStatusLine />
        <div className="sidebar-meta">
          <span className="version">{info ? `v${info.version}` : 'Connecting…'}</span>
          <button
            type="button"
            className="icon-button"
            aria-label="Keyboard shortcuts"
            title="Keyboard shortcuts (?)"
            onClick={onShowShortcuts}
          >
            <Icon name="keyboard" size={16} />
          </button>
        </div>
      </div>
    </aside>
  );
}

const STATUS_TEXT: Record<ApiStatus['state'], string> = {
  up: 'Agent API running',
  down: 'API down',
  off: 'Agent API not running',
  restarting: 'API restarting…',
};

/** Whether agents can reach the API, checked over HTTP (not in process) every few seconds. */
function ApiStatusLine() {
  const status = useAppStore((s) => s.apiStatus);
  const refresh = useAppStore((s) => s.refreshApiStatus);
  const info = useAppStore((s) => s.appInfo);
  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), STATUS_POLL_MS);
    const onFocus = () => void refresh();
    window.addEventListener('focus', onFocus);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
    };
  }, [refresh]);
  const state = status?.state ?? null;
  const url = status?.state === 'up' ? status.url : null;
  const tone = state === 'up' ? 'dot-ok' : state === 'restarting' || state === null ? 'dot-wait' : 'dot-bad';
  return (
    <div className="api-status" data-testid="server-status" data-state={state ?? 'checking'}>
      <div className="server-line" role="status">
        <span className={`dot ${tone}`} aria-hidden="true" />
        <span>{state ? STATUS_TEXT[state] : 'Checking the API…'}</span>
      </div>
      {url ? (
        <div className="server-url-row">
          <code className="server-url">{url}</code>
          <CopyButton text={url} label="Copy API address" compact />
        </div>
      ) : null}
      {status && status.state !== 'up' && status.message ? (
        <p className="server-reason" data-testid="api-status-reason">
          {status.message}
        </p>
      ) : null}
      {!status && info?.serverUrl ? <code className="server-url">{info.serverUrl}</code> : null}
    </div>
  );
}
