import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { MAX_VIDEOS_PER_REQUEST } from '../../../shared/video.schema.js';
import type { GenerateResponse, Template } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorBanner, Loading } from '../../components/StatusViews';
import { invoke } from '../../lib/api';
import { categoryLabel, formatSeconds } from '../../lib/format';
import { useDraft } from '../../lib/use-draft';
import { focusFirstInvalid } from '../../lib/use-form-errors';
import { useScrollIntoView } from '../../lib/use-scroll-into-view';
import { useAppStore } from '../../stores/app-store';
import { GenerateResult } from './GenerateResult';
import { VariableInput, type VariableValue } from './VariableInput';

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
        description="Make videos from a template. Credits are charged when the request is accepted."
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

function GenerateForm({ template }: { template: Template }) {
  const loadBalance = useAppStore((s) => s.loadBalance);
  const characters = useAppStore((s) => s.characters);
  const searchCharacters = useAppStore((s) => s.searchCharacters);
  const acceptsCharacters = template.category === 'ingredients-to-video';
  // Per template, kept while switching screens (the store's drafts).
  const [values, setValues] = useDraft<Record<string, VariableValue>>(`generate:${template.id}:values`, {});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [webhookUrl, setWebhookUrl] = useDraft(`generate:${template.id}:webhook`, '');
  const [count, setCount] = useDraft(`generate:${template.id}:count`, 1);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<unknown>(null);
  const [result, setResult] = useDraft<GenerateResponse | null>(`generate:${template.id}:result`, null);
  const formRef = useRef<HTMLFormElement>(null);
  const [invalidAttempt, setInvalidAttempt] = useState(0);
  const resultRef = useScrollIntoView<HTMLDivElement>(result, { focus: true });
  useEffect(() => {
    if (invalidAttempt > 0) focusFirstInvalid(formRef.current);
  }, [invalidAttempt]);

  useEffect(() => {
    if (acceptsCharacters && characters.status === 'idle') void searchCharacters('');
  }, [acceptsCharacters, characters.status, searchCharacters]);

  const cost = useMemo(
    () => (template.credits_per_video === null ? null : template.credits_per_video * count),
    [template.credits_per_video, count],
  );

  const validate = (): Record<string, string> => {
    const found: Record<string, string> = {};
    for (const v of template.input_variables) {
      const val = values[v.key];
      const text = val?.text ?? '';
      const hasValue = v.type === 'text' ? text.length > 0 : Boolean(val?.characterId || val?.reference);
      if (v.required && !hasValue && !v.default_value) found[v.key] = `${v.label} is required`;
      if (v.type === 'text' && text.length > 0) {
        if (v.min_length !== undefined && text.length < v.min_length)
          found[v.key] = `At least ${v.min_length} characters`;
        if (v.max_length !== undefined && text.length > v.max_length)
          found[v.key] = `At most ${v.max_length} characters`;
      }
    }
    if (webhookUrl.trim() && !/^https?:\/\/\S+$/i.test(webhookUrl.trim()))
      found.__webhook = 'Webhook URL must start with http:// or https://';
    return found;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length) setInvalidAttempt((n) => n + 1);
    setServerError(null);
    if (Object.keys(found).length) return;
    const variables: Record<string, string> = {};
    const characterVariables: Record<string, string> = {};
    for (const v of template.input_variables) {
      const val = values[v.key];
      if (!val) continue;
      if (v.type === 'text' && val.text) variables[v.key] = val.text;
      if (v.type !== 'text' && val.reference) variables[v.key] = val.reference;
      if (val.characterId) characterVariables[v.key] = val.characterId;
    }
    setBusy(true);
    try {
      setResult(
        await invoke('generate:fromTemplate', {
          params: { id: template.id },
          body: {
            variables,
            ...(Object.keys(characterVariables).length ? { character_variables: characterVariables } : {}),
            ...(webhookUrl.trim() ? { webhook_url: webhookUrl.trim() } : {}),
            num_videos: count,
          },
        }),
      );
      void loadBalance();
    } catch (err) {
      setServerError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="generate-form-title">
      <div className="card-header">
        <h2 id="generate-form-title">{template.title}</h2>
        <span className="muted">
          {formatSeconds(template.duration_sec)} video · typical wait{' '}
          {formatSeconds(template.latency_estimate_sec?.typical)}
        </span>
      </div>
      {template.description ? <p className="detail-description">{template.description}</p> : null}
      <form
        ref={formRef}
        onSubmit={submit}
        noValidate
        aria-label="Generate a video"
        className="generate-form"
        data-primary-form
      >
        {template.input_variables.map((v) => (
          <VariableInput
            key={v.key}
            variable={v}
            value={values[v.key] ?? {}}
            error={errors[v.key]}
            characters={acceptsCharacters && v.type === 'image' ? characters.data : null}
            onChange={(val) => {
              setValues((all) => ({ ...all, [v.key]: val }));
              if (errors[v.key]) setErrors(({ [v.key]: _cleared, ...rest }) => rest);
            }}
          />
        ))}
        <details className="advanced">
          <summary>Delivery options</summary>
          <div className="form-grid">
            <Field
              label="Webhook URL"
              error={errors.__webhook}
              hint="Receives a POST when each video completes or fails."
            >
              <input
                type="url"
                value={webhookUrl}
                onChange={(e) => setWebhookUrl(e.target.value)}
                placeholder="https://example.com/hooks/video"
              />
            </Field>
            <Field label="Number of videos">
              <input
                type="number"
                min={1}
                max={MAX_VIDEOS_PER_REQUEST}
                value={count}
                onChange={(e) => setCount(Math.max(1, Math.min(MAX_VIDEOS_PER_REQUEST, Number(e.target.value) || 1)))}
              />
            </Field>
          </div>
        </details>
        {serverError ? <ApiErrorBanner title="The generation was not started" error={serverError} /> : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Starting…' : 'Generate'}
          </button>
          <span className="muted">{cost === null ? 'No pricing for this template' : `Costs ${cost} credits`}</span>
        </div>
      </form>
      {result ? (
        <div ref={resultRef} tabIndex={-1} className="reveal-target" data-testid="generate-outcome">
          <GenerateResult result={result} />
        </div>
      ) : null}
    </section>
  );
}
