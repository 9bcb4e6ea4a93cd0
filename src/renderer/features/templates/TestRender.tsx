import { useState } from 'react';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { QuoteSummary } from '../../components/QuoteSummary';
import { generateFromTemplate, quoteTemplate, type Quote } from '../../lib/studio-api';
import { useAppStore } from '../../stores/app-store';

/** A render with the template's real provider: its quote first, then charged only when the person confirms. */
export function TestRender({
  scratchId,
  values,
  disabled,
}: {
  scratchId: () => Promise<string | null>;
  values: Record<string, string>;
  disabled: boolean;
}) {
  const navigate = useAppStore((s) => s.navigate);
  const [quote, setQuote] = useState<{ id: string; quote: Quote } | null>(null);
  const [started, setStarted] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const ask = () =>
    run(async () => {
      const id = await scratchId();
      if (id) setQuote({ id, quote: await quoteTemplate(id, { variables: values }) });
    });
  const confirm = () =>
    run(async () => {
      if (!quote) return;
      const answer = await generateFromTemplate(quote.id, { variables: values });
      setStarted(answer.generations[0]?.generation_id ?? null);
      setQuote(null);
    });
  return (
    <div className="test-render">
      <button
        type="button"
        className="btn btn-secondary btn-small"
        disabled={disabled || busy}
        onClick={() => void ask()}
      >
        Test render with the provider…
      </button>
      {quote ? (
        <div className="banner banner-info" role="status">
          <div>
            <QuoteSummary quote={quote.quote} testId="test-render-quote" />
            <div className="form-actions">
              <button
                type="button"
                className="btn btn-primary btn-small"
                disabled={busy}
                onClick={() => void confirm()}
              >
                Render for {quote.quote.credits} credits
              </button>
              <button type="button" className="btn btn-secondary btn-small" onClick={() => setQuote(null)}>
                Cancel
              </button>
            </div>
          </div>
        </div>
      ) : null}
      {started ? (
        <p className="field-hint" role="status">
          Test render started.{' '}
          <button type="button" className="btn-link" onClick={() => navigate('generations', { generationId: started })}>
            Open it in Generations
          </button>
        </p>
      ) : null}
      {error ? <ApiErrorBanner title="The test render was not started" error={error} /> : null}
    </div>
  );
}
