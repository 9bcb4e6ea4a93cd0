import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Template, TemplateInput } from '../../../shared/ipc-contract.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { ApiError } from '../../lib/api';
import { focusFirstInvalid } from '../../lib/use-form-errors';
import { useAppStore } from '../../stores/app-store';
import { ProviderFields } from './ProviderFields';
import { PromptField } from './PromptField';
import { serverFieldErrors, tokenReport, validateDraft } from './template-checks';
import { draftOf, inputOf, type TemplateDraft } from './template-form-state';
import { TemplateBasics } from './TemplateBasics';
import { TemplateFileActions } from './TemplateFileActions';
import { TemplateJsonTab } from './TemplateJsonTab';
import { TemplatePreview } from './TemplatePreview';
import { VariablesEditor } from './VariablesEditor';
import './template-editor.css';

type Tab = 'form' | 'json';

/**
 * New / Edit template: the fields, the provider, the prompt with its tokens checked, the variables, a JSON tab
 * that round-trips, and a live draft preview. `start` is a body to begin from (a duplicated or imported one).
 */
export function TemplateForm({
  template,
  start,
  onCancel,
  onSaved,
}: {
  template: Template | null;
  start?: TemplateInput | null;
  onCancel: () => void;
  onSaved: (t: Template) => void;
}) {
  const saveTemplate = useAppStore((s) => s.saveTemplate);
  const [draft, setDraft] = useState<TemplateDraft>(() => draftOf(start ?? template));
  const [tab, setTab] = useState<Tab>('form');
  const [jsonText, setJsonText] = useState('');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** The service's reasons of the last refusal, on their fields until the next edit. */
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [invalidAttempt, setInvalidAttempt] = useState(0);
  useEffect(() => {
    if (invalidAttempt > 0) focusFirstInvalid(formRef.current);
  }, [invalidAttempt]);
  const set = <K extends keyof TemplateDraft>(key: K, value: TemplateDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  useEffect(() => setServerFields({}), [draft]);

  const body = useMemo(() => inputOf(draft), [draft]);
  const live = useMemo(() => validateDraft(draft), [draft]);
  const tokens = useMemo(() => tokenReport(draft), [draft]);
  // Errors show once a save was tried; after that they follow the edits.
  const shown = { ...(invalidAttempt > 0 ? live : errors), ...serverFields };

  /** The JSON tab's text as the draft; false (and the error on the field) when it is not a template body. */
  const applyJson = (): TemplateDraft | false => {
    try {
      const parsed: unknown = JSON.parse(jsonText);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('must be a JSON object');
      const next = draftOf(parsed as TemplateInput);
      setDraft(next);
      setJsonError(null);
      return next;
    } catch (err) {
      setJsonError(`Not a template: ${(err as Error).message}`);
      return false;
    }
  };
  const switchTab = (next: Tab) => {
    if (next === tab) return;
    if (next === 'json') {
      setJsonText(JSON.stringify(body, null, 2));
      setJsonError(null);
    } else if (!applyJson()) return;
    setTab(next);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const current = tab === 'json' ? applyJson() : draft;
    if (!current) return;
    const found = validateDraft(current);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length > 0) {
      setTab('form');
      setInvalidAttempt((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      onSaved(await saveTemplate(template?.id ?? null, inputOf(current)));
    } catch (err) {
      // The service's reasons go onto their fields; what names none stays in the banner.
      if (err instanceof ApiError) setServerFields(serverFieldErrors(err.message, err.details.reasons).fields);
      setServerError(err);
    } finally {
      setBusy(false);
    }
  };

  const errorCount = Object.keys(shown).length;
  const variableKeys = draft.input_variables.map((v) => v.key.trim()).filter(Boolean);
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
        <TemplateFileActions
          body={body}
          onImport={(b) => {
            setDraft(draftOf(b));
            setTab('form');
          }}
        />
      </div>
      {errorCount > 0 && invalidAttempt > 0 ? (
        <div className="banner banner-error" role="alert">
          <div>
            <strong>Fix {errorCount === 1 ? 'the highlighted field' : `the ${errorCount} highlighted fields`}</strong>
          </div>
        </div>
      ) : null}
      {serverError ? <ApiErrorBanner title="The template was not saved" error={serverError} /> : null}
      <div className="editor-tabs" role="tablist" aria-label="Edit as">
        {(['form', 'json'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`template-tab-${t}`}
            aria-selected={tab === t}
            aria-controls={`template-panel-${t}`}
            className={`tab${tab === t ? ' tab-active' : ''}`}
            onClick={() => switchTab(t)}
          >
            {t === 'form' ? 'Form' : 'JSON'}
          </button>
        ))}
      </div>
      <div className="template-editor">
        <div className="template-editor-main">
          {tab === 'json' ? (
            <div role="tabpanel" id="template-panel-json" aria-labelledby="template-tab-json">
              <TemplateJsonTab text={jsonText} error={jsonError} onChange={setJsonText} />
            </div>
          ) : (
            <div role="tabpanel" id="template-panel-form" aria-labelledby="template-tab-form">
              <div className="form-grid">
                <TemplateBasics draft={draft} errors={shown} set={set} />
                <ProviderFields provider={draft.provider} errors={shown} onChange={(p) => set('provider', p)} />
                <div className="span-2">
                  <PromptField
                    value={draft.prompt_template}
                    variableKeys={variableKeys}
                    unknown={tokens.unknown}
                    unused={tokens.unused}
                    error={shown.prompt_template}
                    onChange={(v) => set('prompt_template', v)}
                  />
                </div>
              </div>
              <VariablesEditor
                variables={draft.input_variables}
                errors={shown}
                unused={tokens.unused}
                onChange={(vars) => set('input_variables', vars)}
              />
            </div>
          )}
        </div>
        <TemplatePreview body={body} problems={Object.keys(live)} highlighted={invalidAttempt > 0} />
      </div>
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
