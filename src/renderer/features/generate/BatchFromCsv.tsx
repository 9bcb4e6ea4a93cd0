import { useMemo, useRef, useState } from 'react';
import type { GenerateResponse, Template } from '../../../shared/ipc-contract.js';
import { MAX_BATCH_ROWS } from '../../../shared/video.schema.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { DataTable, type Column } from '../../components/DataTable';
import { DropZone } from '../../components/DropZone';
import { errorMessage, invoke } from '../../lib/api';
import { parseCsv, type CsvTable } from '../../lib/csv';
import { generateFromTemplate, type GenerateBody } from '../../lib/studio-api';
import { useAppStore } from '../../stores/app-store';
import { batchRows } from './batch-rows';
import { optionsBody, type GenerateOptions } from './generate-body';
import { QuoteBar } from './QuoteBar';
import { currentQuote, useQuote } from './use-quote';

type Row = Record<string, string> & { __row: string };

/**
 * A batch from a CSV: one row per video, columns named by the variable keys; a media cell names a stored key, a
 * URL, or a file dropped along with the CSV (uploaded first). A preview table and the price before anything is
 * charged, then one request (one batch_id).
 */
export function BatchFromCsv({
  template,
  options,
  blocked,
  onStarted,
}: {
  template: Template;
  options: GenerateOptions;
  /** A delivery option is not valid (shown beside it): nothing is quoted or sent. */
  blocked: boolean;
  onStarted: (r: GenerateResponse) => void;
}) {
  const uploadFiles = useAppStore((s) => s.uploadFiles);
  const loadBalance = useAppStore((s) => s.loadBalance);
  const [table, setTable] = useState<CsvTable | null>(null);
  const [csvName, setCsvName] = useState<string | null>(null);
  /** Dropped media by file name -> its storage key once uploaded. */
  const [uploaded, setUploaded] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<unknown>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  /** The batch this screen started (its videos), until it is cancelled. */
  const [batch, setBatch] = useState<{ id: string; videos: string[]; note: string | null } | null>(null);
  // Something to cancel only while a video of it is still being made (or not yet known here).
  const cancellable = useAppStore(
    (s) =>
      batch !== null &&
      batch.note === null &&
      batch.videos.some((id) => (s.generations.data.find((g) => g.id === id)?.status ?? 'generating') === 'generating'),
  );

  const take = async (files: File[]) => {
    setProblem(null);
    const csv = files.find((f) => /\.csv$/i.test(f.name) || f.type === 'text/csv');
    const media = files.filter((f) => f !== csv);
    try {
      if (csv) {
        setTable(parseCsv(await csv.text()));
        setCsvName(csv.name);
      }
      if (media.length) {
        setBusy(true);
        const done = await uploadFiles(media, 'generate');
        setUploaded((u) => ({ ...u, ...Object.fromEntries(done.map((f) => [f.name, f.s3_key])) }));
      }
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const built = useMemo(() => (table ? batchRows(template, table, uploaded) : null), [table, template, uploaded]);
  const body: GenerateBody | null =
    !blocked && built && built.problems.length === 0 && built.rows.length > 0
      ? { variables: {}, batch: built.rows, ...optionsBody(template, options) }
      : null;
  const quoteState = useQuote(template.id, body);
  const quote = currentQuote(quoteState, body);

  const start = async () => {
    if (!body || !quote) return;
    setBusy(true);
    setServerError(null);
    try {
      const answer = await generateFromTemplate(template.id, body);
      if (answer.batch_id) {
        setBatch({ id: answer.batch_id, videos: answer.generations.map((g) => g.generation_id), note: null });
      }
      onStarted(answer as GenerateResponse);
    } catch (err) {
      setServerError(err);
    } finally {
      setBusy(false);
    }
  };

  const cancelBatch = async () => {
    if (!batch) return;
    setBusy(true);
    try {
      const done = await invoke('batches:cancel', { params: { id: batch.id } });
      setBatch({
        ...batch,
        note: `Cancelled ${done.canceled.length} video${done.canceled.length === 1 ? '' : 's'}; ${done.credits_refunded} credits refunded.`,
      });
      void loadBalance();
    } catch (err) {
      setServerError(err);
    } finally {
      setBusy(false);
    }
  };

  const columns: Column<Row>[] = [
    { header: '#', className: 'num col-row', cell: (r) => r.__row },
    ...(table?.columns ?? []).map((c) => ({ id: c, header: c, cell: (r: Row) => r[c] || '—' })),
  ];
  const rows: Row[] = (table?.rows ?? []).map((r, i) => ({ ...r, __row: String(i + 1) }));
  const keys = template.input_variables.map((v) => v.key).join(', ');
  return (
    <div className="batch-csv" data-testid="batch-csv">
      <DropZone
        label="Drop a CSV and its media files"
        className="batch-drop"
        onFiles={(files) => void take(files)}
        disabled={busy}
      >
        <div>
          <p>
            Drop a CSV here (one row per video, at most {MAX_BATCH_ROWS}; columns: <span className="mono">{keys}</span>
            ), with the image, video or audio files its rows name.
          </p>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => fileRef.current?.click()}>
            Choose CSV and files…
          </button>
          <input
            ref={fileRef}
            type="file"
            multiple
            className="sr-only"
            tabIndex={-1}
            aria-label="CSV and media files"
            data-testid="batch-files"
            onChange={(e) => void take([...(e.target.files ?? [])])}
          />
        </div>
      </DropZone>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {table ? (
        <>
          <p className="muted">
            {csvName}: {table.rows.length} row{table.rows.length === 1 ? '' : 's'}
            {Object.keys(uploaded).length ? ` · ${Object.keys(uploaded).length} file(s) uploaded` : ''}
          </p>
          <DataTable label="Batch rows" rows={rows} rowKey={(r) => r.__row} rowTestId="batch-row" columns={columns} />
        </>
      ) : null}
      {built?.problems.length ? (
        <ul className="field-error batch-problems" data-testid="batch-problems">
          {built.problems.slice(0, 8).map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      <QuoteBar state={quoteState} quote={quote} />
      {serverError ? <ApiErrorBanner title="The batch was not started" error={serverError} /> : null}
      <div className="form-actions">
        <button type="button" className="btn btn-primary" disabled={busy || !quote} onClick={() => void start()}>
          {busy ? 'Working…' : quote ? `Generate ${quote.num_videos} videos` : 'Generate batch'}
        </button>
        {quote ? <span className="muted">Charges {quote.credits} credits</span> : null}
        {cancellable ? (
          <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void cancelBatch()}>
            Cancel this batch
          </button>
        ) : null}
      </div>
      {batch?.note ? (
        <p className="field-hint" role="status" data-testid="batch-cancelled">
          {batch.note}
        </p>
      ) : null}
    </div>
  );
}
