import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { GenerateResponse, Template } from '../../../shared/ipc-contract.js';
import type { AspectRatio, OutputFormat } from '../../../shared/video.schema.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { RendererLabel } from '../../components/RendererLabel';
import { formatSeconds } from '../../lib/format';
import { generateFromTemplate } from '../../lib/studio-api';
import { useDraft } from '../../lib/use-draft';
import { focusFirstInvalid } from '../../lib/use-form-errors';
import { useScrollIntoView } from '../../lib/use-scroll-into-view';
import { useAppStore } from '../../stores/app-store';
import { BatchFromCsv } from './BatchFromCsv';
import { FormatOptions } from './FormatOptions';
import { DeliveryOptions } from './DeliveryOptions';
import { deliveryProblems, singleBody, takesText, type GenerateOptions } from './generate-body';
import { GenerateResult } from './GenerateResult';
import { QuoteBar } from './QuoteBar';
import { currentQuote, useQuote } from './use-quote';
import { VariableInput, type VariableValue } from './VariableInput';
import './generate-studio.css';

/** One template's Generate form: its inputs, formats, the price before paying, and CSV batches. */
export function GenerateForm({ template }: { template: Template }) {
  const loadBalance = useAppStore((s) => s.loadBalance);
  const characters = useAppStore((s) => s.characters);
  const searchCharacters = useAppStore((s) => s.searchCharacters);
  const acceptsCharacters = template.category === 'ingredients-to-video';
  // Per template, kept while switching screens (the store's drafts).
  const [values, setValues] = useDraft<Record<string, VariableValue>>(`generate:${template.id}:values`, {});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [webhookUrl, setWebhookUrl] = useDraft(`generate:${template.id}:webhook`, '');
  const [count, setCount] = useDraft(`generate:${template.id}:count`, 1);
  const templateRatio = (template as { aspect_ratio?: AspectRatio }).aspect_ratio ?? '16:9';
  const [aspectRatio, setAspectRatio] = useDraft(`generate:${template.id}:aspect`, templateRatio);
  const [extraOutputs, setExtraOutputs] = useDraft<OutputFormat[]>(`generate:${template.id}:outputs`, []);
  const [deadlineMinutes, setDeadlineMinutes] = useDraft(`generate:${template.id}:deadline`, '');
  const [mode, setMode] = useDraft<'single' | 'batch'>(`generate:${template.id}:mode`, 'single');
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<unknown>(null);
  // Each tab keeps its own last result: a single video's does not show under Batch from CSV, nor a batch's under
  // Fill in.
  const [result, setResult] = useDraft<GenerateResponse | null>(`generate:${template.id}:result:${mode}`, null);
  const formRef = useRef<HTMLFormElement>(null);
  const [invalidAttempt, setInvalidAttempt] = useState(0);
  const resultRef = useScrollIntoView<HTMLDivElement>(result, { focus: true });
  useEffect(() => {
    if (invalidAttempt > 0) focusFirstInvalid(formRef.current);
  }, [invalidAttempt]);
  useEffect(() => {
    if (acceptsCharacters && characters.status === 'idle') void searchCharacters('');
  }, [acceptsCharacters, characters.status, searchCharacters]);

  const options: GenerateOptions = { webhookUrl, count, aspectRatio, extraOutputs, deadlineMinutes };
  const deliveryErrors = deliveryProblems(options);
  const validate = (): Record<string, string> => {
    const found: Record<string, string> = {};
    for (const v of template.input_variables) {
      const val = values[v.key];
      const text = val?.text ?? '';
      const hasValue = takesText(v.type) ? text.length > 0 : Boolean(val?.characterId || val?.reference);
      if (v.required && !hasValue && !v.default_value) found[v.key] = `${v.label} is required`;
      if (v.type === 'text' && text.length > 0) {
        if (v.min_length !== undefined && text.length < v.min_length)
          found[v.key] = `At least ${v.min_length} characters`;
        if (v.max_length !== undefined && text.length > v.max_length)
          found[v.key] = `At most ${v.max_length} characters`;
      }
    }
    return { ...found, ...deliveryErrors };
  };
  const complete = Object.keys(validate()).length === 0;
  // The price of exactly what the button sends, asked once the inputs are complete.
  const body = useMemo(
    () => (mode === 'single' && complete ? singleBody(template, values, options) : null),
    [mode, complete, template, values, webhookUrl, count, aspectRatio, extraOutputs, deadlineMinutes],
  );
  const quoteState = useQuote(template.id, body);
  const quote = currentQuote(quoteState, body);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length) setInvalidAttempt((n) => n + 1);
    setServerError(null);
    if (Object.keys(found).length || !body || !quote) return;
    setBusy(true);
    try {
      setResult((await generateFromTemplate(template.id, body)) as GenerateResponse);
      void loadBalance();
    } catch (err) {
      setServerError(err);
    } finally {
      setBusy(false);
    }
  };

  const hasCaptions = template.input_variables.some((v) => v.type === 'captions');
  // One request shows what its submit found; a batch has no submit to wait for, so it shows what is wrong at once.
  const deliveryOptions = (single: boolean) => (
    <DeliveryOptions
      webhookUrl={webhookUrl}
      deadlineMinutes={deadlineMinutes}
      errors={single ? errors : deliveryErrors}
      onWebhookUrl={setWebhookUrl}
      onDeadlineMinutes={(m) => {
        setDeadlineMinutes(m);
        if (errors.__deadline) setErrors(({ __deadline: _cleared, ...rest }) => rest);
      }}
      {...(single ? { count, onCount: setCount } : {})}
    />
  );
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
      <RendererLabel item={template} offerConnect />
      <div className="editor-tabs generate-mode" role="radiogroup" aria-label="How many videos">
        {(['single', 'batch'] as const).map((m) => (
          <label key={m} className={`tab${mode === m ? ' tab-active' : ''}`}>
            <input
              type="radio"
              className="sr-only"
              name={`generate-mode-${template.id}`}
              checked={mode === m}
              onChange={() => setMode(m)}
            />
            {m === 'single' ? 'Fill in' : 'Batch from CSV'}
          </label>
        ))}
      </div>
      <FormatOptions
        aspectRatio={aspectRatio}
        outputs={extraOutputs}
        hasCaptions={hasCaptions}
        onAspectRatio={setAspectRatio}
        onOutputs={setExtraOutputs}
      />
      {mode === 'batch' ? (
        <>
          {deliveryOptions(false)}
          <BatchFromCsv
            template={template}
            options={options}
            blocked={Object.keys(deliveryErrors).length > 0}
            onStarted={(r) => (setResult(r), void loadBalance())}
          />
        </>
      ) : (
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
          {deliveryOptions(true)}
          <QuoteBar state={quoteState} quote={quote} />
          {serverError ? <ApiErrorBanner title="The generation was not started" error={serverError} /> : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy || (complete && !quote)}>
              {busy ? 'Starting…' : 'Generate'}
            </button>
            <span className="muted" data-testid="generate-cost">
              {!complete
                ? 'Fill in the required fields to see the price'
                : quote
                  ? `Charges ${quote.credits} credits`
                  : 'Working out the price…'}
            </span>
          </div>
        </form>
      )}
      {result ? (
        <div ref={resultRef} tabIndex={-1} className="reveal-target" data-testid="generate-outcome">
          <GenerateResult result={result} />
        </div>
      ) : null}
    </section>
  );
}
