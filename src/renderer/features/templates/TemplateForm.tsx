import { useEffect, useRef, useState, type FormEvent } from 'react';
import { TEMPLATE_CATEGORIES, type TemplateCategory } from '../../../shared/video.schema.js';
import type { Template } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { Field } from '../../components/Field';
import { categoryLabel } from '../../lib/format';
import { focusFirstInvalid } from '../../lib/use-form-errors';
import { useAppStore } from '../../stores/app-store';
import { draftOf, inputOf, validateDraft, type TemplateDraft } from './template-form-state';
import { VariablesEditor } from './VariablesEditor';

export function TemplateForm({
  template,
  onCancel,
  onSaved,
}: {
  template: Template | null;
  onCancel: () => void;
  onSaved: (t: Template) => void;
}) {
  const saveTemplate = useAppStore((s) => s.saveTemplate);
  const [draft, setDraft] = useState<TemplateDraft>(() => draftOf(template));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [invalidAttempt, setInvalidAttempt] = useState(0);
  useEffect(() => {
    if (invalidAttempt > 0) focusFirstInvalid(formRef.current);
  }, [invalidAttempt]);
  const set = <K extends keyof TemplateDraft>(key: K, value: TemplateDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateDraft(draft);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length > 0) {
      setInvalidAttempt((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      onSaved(await saveTemplate(template?.id ?? null, inputOf(draft)));
    } catch (err) {
      setServerError(err);
    } finally {
      setBusy(false);
    }
  };

  const errorCount = Object.keys(errors).length;
  return (
    <form
      ref={formRef}
      className="template-form"
      onSubmit={submit}
      noValidate
      aria-labelledby="template-form-title"
      data-primary-form
    >
      <div className="detail-header">
        <h2 id="template-form-title">{template ? `Edit “${template.title}”` : 'New template'}</h2>
      </div>
      {errorCount > 0 ? (
        <div className="banner banner-error" role="alert">
          <div>
            <strong>Fix {errorCount === 1 ? 'the highlighted field' : `the ${errorCount} highlighted fields`}</strong>
          </div>
        </div>
      ) : null}
      {serverError ? <ApiErrorBanner title="The template was not saved" error={serverError} /> : null}
      <div className="form-grid">
        <Field label="Title" required error={errors.title}>
          <input value={draft.title} onChange={(e) => set('title', e.target.value)} maxLength={200} />
        </Field>
        <Field label="Category" required error={errors.category}>
          <select value={draft.category} onChange={(e) => set('category', e.target.value as TemplateCategory)}>
            {TEMPLATE_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {categoryLabel(c)}
              </option>
            ))}
          </select>
        </Field>
        <div className="span-2">
          <Field label="Description" error={errors.description}>
            <textarea rows={2} value={draft.description} onChange={(e) => set('description', e.target.value)} />
          </Field>
        </div>
        <Field label="Duration (seconds)" error={errors.duration_sec}>
          <input
            type="number"
            min={1}
            max={600}
            step="any"
            value={draft.duration_sec}
            onChange={(e) => set('duration_sec', e.target.value)}
          />
        </Field>
        <div className="form-row-2">
          <Field label="Model" error={errors.model}>
            <input value={draft.model} onChange={(e) => set('model', e.target.value)} />
          </Field>
          <Field label="Resolution" error={errors.resolution}>
            <input value={draft.resolution} onChange={(e) => set('resolution', e.target.value)} />
          </Field>
        </div>
        <div className="span-2">
          <Field
            label="Prompt template"
            error={errors.prompt_template}
            hint={<>Use {'{{key}}'} tokens to insert text variables.</>}
          >
            <textarea
              rows={3}
              className="mono"
              value={draft.prompt_template}
              onChange={(e) => set('prompt_template', e.target.value)}
            />
          </Field>
        </div>
      </div>
      <VariablesEditor
        variables={draft.input_variables}
        errors={errors}
        onChange={(vars) => set('input_variables', vars)}
      />
      <div className="form-actions sticky-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : template ? 'Save changes' : 'Create template'}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
