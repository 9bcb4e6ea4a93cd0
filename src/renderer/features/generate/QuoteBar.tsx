import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { QuoteSummary } from '../../components/QuoteSummary';
import type { Quote } from '../../lib/studio-api';
import type { QuoteState } from './use-quote';

/** The price of what the button will send, shown before it is pressed. */
export function QuoteBar({ state, quote }: { state: QuoteState; quote: Quote | null }) {
  if (quote) return <QuoteSummary quote={quote} />;
  if (state.status === 'error') return <ApiErrorBanner title="No price for this request yet" error={state.error} />;
  if (state.status === 'loading')
    return (
      <p className="muted" role="status">
        Working out the price…
      </p>
    );
  return null;
}
