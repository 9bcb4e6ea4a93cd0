import { useEffect } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { ErrorBanner, Loading } from '../../components/StatusViews';
import { useAppStore } from '../../stores/app-store';
import { ApiKeysSection } from './ApiKeysSection';
import { AppearanceSection } from './AppearanceSection';
import { BackupSection } from './BackupSection';
import { BrowserSection } from './BrowserSection';
import { CrashReportsSection } from './CrashReportsSection';
import { LocalApiSection } from './LocalApiSection';
import { MailboxesSection } from './MailboxesSection';
import { OrgsSection } from './OrgsSection';
import { ProvidersSection } from './ProvidersSection';
import { StartupSection } from './StartupSection';
import { StorageSection } from './StorageSection';
import { UpdatesSection } from './UpdatesSection';
import { WebhookSection } from './WebhookSection';

const SECTIONS = [
  ['local-api', 'Local API'],
  ['startup', 'Start-up'],
  ['keys', 'API keys'],
  ['orgs', 'Organizations and credits'],
  ['mailboxes', 'Mailboxes'],
  ['webhooks', 'Webhook secret'],
  ['providers', 'Video providers'],
  ['storage', 'Storage'],
  ['backup', 'Backup'],
  ['browser', 'Browser and concurrency'],
  ['appearance', 'Appearance'],
  ['updates', 'Updates'],
  ['crashes', 'Crash reports'],
] as const;

export function SettingsScreen() {
  const settings = useAppStore((s) => s.settings);
  const loadSettings = useAppStore((s) => s.loadSettings);
  const loadOrgs = useAppStore((s) => s.loadOrgs);
  const loadMailboxes = useAppStore((s) => s.loadMailboxes);
  const loadWebhookSecret = useAppStore((s) => s.loadWebhookSecret);

  useEffect(() => {
    void loadSettings();
    void loadOrgs();
    void loadMailboxes();
    void loadWebhookSecret();
  }, [loadSettings, loadOrgs, loadMailboxes, loadWebhookSecret]);

  return (
    <div className="page settings-page">
      <PageHeader
        title="Settings"
        description="The local API, starting it when you log in, its keys, organizations and credits, mailboxes for login codes, video providers, storage, backups, the browser, how the app looks, updates and crash reports."
      />
      <nav className="settings-toc" aria-label="Settings sections">
        {SECTIONS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            className="toc-link"
            onClick={() => document.getElementById(`settings-${id}`)?.scrollIntoView({ behavior: 'smooth' })}
          >
            {label}
          </button>
        ))}
      </nav>
      {settings.status === 'error' ? (
        <ErrorBanner
          title="Could not read the settings"
          message={settings.error ?? ''}
          onRetry={() => void loadSettings()}
        />
      ) : null}
      {settings.data ? (
        <LocalApiSection settings={settings.data} />
      ) : settings.status !== 'error' ? (
        <Loading label="Loading settings…" />
      ) : null}
      <StartupSection />
      <ApiKeysSection />
      <OrgsSection />
      <MailboxesSection />
      <WebhookSection />
      <ProvidersSection />
      {settings.data ? <StorageSection settings={settings.data} /> : null}
      <BackupSection />
      {settings.data ? <BrowserSection settings={settings.data} /> : null}
      <AppearanceSection />
      <UpdatesSection />
      <CrashReportsSection />
    </div>
  );
}
