import { useEffect } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorBanner, Loading } from '../../components/StatusViews';
import { categoryLabel } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';
import { GenerateForm } from './GenerateForm';

export function GenerateScreen() {
  const templates = useAppStore((s) => s.templates);
  const loadTemplates = useAppStore((s) => s.loadTemplates);
  const templateId = useAppStore((s) => s.generateTemplateId);
  const navigate = useAppStore((s) => s.navigate);
  const balance = useAppStore((s) => s.balance);
  const loadBalance = useAppStore((s) => s.loadBalance);

  useEffect(() => {
    if (templates.status === 'idle') void loadTemplates();
  }, [templates.status, loadTemplates]);
  useEffect(() => {
    void loadBalance();
  }, [loadBalance]);

  const template = templates.data.find((t) => t.id === templateId) ?? null;
  return (
    <div className="page">
      <PageHeader
        title="Generate"
        description="Make videos from a template. The price is shown before anything is charged; credits are charged when the request is accepted."
        actions={
          balance !== null ? (
            <div className="balance" data-testid="credit-balance">
              <span className="muted">Balance</span> <strong>{balance}</strong> credits
            </div>
          ) : null
        }
      />
      <section className="card">
        <div className="toolbar">
          <label className="inline-label" htmlFor="generate-template">
            Template
          </label>
          <select
            id="generate-template"
            value={templateId ?? ''}
            onChange={(e) => navigate('generate', { templateId: e.target.value || null })}
          >
            <option value="">Choose a template…</option>
            {templates.data.map((t) => (
              <option key={t.id} value={t.id}>
                {t.title} — {categoryLabel(t.category)}
              </option>
            ))}
          </select>
        </div>
        {templates.status === 'loading' && templates.data.length === 0 ? <Loading label="Loading templates…" /> : null}
        {templates.status === 'error' ? (
          <ErrorBanner
            title="Could not load templates"
            message={templates.error ?? ''}
            onRetry={() => void loadTemplates()}
          />
        ) : null}
      </section>
      {template ? (
        <GenerateForm key={template.id} template={template} />
      ) : templates.status === 'ready' ? (
        <section className="card">
          <EmptyState title="No template chosen">
            Pick a template above, or open one in Templates and press Generate.
          </EmptyState>
        </section>
      ) : null}
    </div>
  );
}
