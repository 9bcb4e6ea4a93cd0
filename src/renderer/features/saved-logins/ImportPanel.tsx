import { useEffect, useState, type FormEvent } from 'react';
import { IMPORT_FORMATS, type CredentialImportResult } from '../../../shared/credentials.schema.js';
import { ApiErrorBanner } from '../../components/ApiErrorBanner';
import { DataTable, NoValue, type Column } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { ApiError, errorMessage, invoke } from '../../lib/api';
import { formatBytes } from '../../lib/format';
import { useScrollIntoView } from '../../lib/use-scroll-into-view';
import { useAppStore } from '../../stores/app-store';
import { FORMAT_FILES, FORMAT_NAMES, readExportFile, type ExportFile, type ImportFormat } from './import-file';
import { SharingPicker } from './SharingPicker';
import { stacked } from './stacked-columns';

type Item = CredentialImportResult['items'][number];

const ACTION_TONES: Record<Item['action'], string> = { create: 'success', merge: 'accent', skip: 'warning' };
const ACTION_WORDS: Record<Item['action'], string> = { create: 'New', merge: 'Merge', skip: 'Skip' };

const COLUMNS: Column<Item>[] = stacked<Item>([
  { header: 'Where', cellClassName: 'mono', cell: (i) => i.at },
  { header: 'Label', cell: (i) => i.label },
  { header: 'Site', cell: (i) => i.origin ?? <NoValue /> },
  { header: 'Username', cell: (i) => i.username || <NoValue /> },
  {
    header: 'Action',
    cell: (i) => <span className={`badge badge-${ACTION_TONES[i.action]}`}>{ACTION_WORDS[i.action]}</span>,
  },
  { header: 'Reason', cell: (i) => i.reason ?? <NoValue /> },
]);

/** "line 3, column 7" of a bad file, when the service named them. */
function whereInFile(err: unknown): string | null {
  if (!(err instanceof ApiError) || typeof err.details.line !== 'number') return null;
  const column = typeof err.details.column === 'number' ? `, column ${err.details.column}` : '';
  return `Line ${err.details.line}${column} of the file.`;
}

/**
 * Import from a password manager's or browser's export: a format and a file, a preview (dry run) of what
 * would be created, merged and skipped, then the import. The file's content is in this form's state only,
 * and dropped once the import finished.
 */
export function ImportPanel({ onDone }: { onDone: () => void }) {
  const keys = useAppStore((s) => s.shareKeys);
  const loadKeys = useAppStore((s) => s.loadShareKeys);
  const reload = useAppStore((s) => s.loadSavedLogins);
  const [format, setFormat] = useState<ImportFormat>('chrome');
  const [file, setFile] = useState<ExportFile | null>(null);
  const [share, setShare] = useState<{ share: 'all' | 'chosen'; keyIds: string[] }>({ share: 'all', keyIds: [] });
  const [plan, setPlan] = useState<CredentialImportResult | null>(null);
  const [done, setDone] = useState<CredentialImportResult | null>(null);
  const [busy, setBusy] = useState<'reading' | 'preview' | 'import' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const shown = done ?? plan;
  const resultRef = useScrollIntoView<HTMLDivElement>(shown);

  useEffect(() => {
    if (keys.status === 'idle') void loadKeys();
  }, [keys.status, loadKeys]);

  const changed = () => {
    setPlan(null);
    setDone(null);
    setError(null);
  };
  const choose = async (picked: File | undefined) => {
    changed();
    setFile(null);
    if (!picked) return;
    setBusy('reading');
    try {
      setFile(await readExportFile(picked));
    } catch (err) {
      setError(new Error(`The file could not be read: ${errorMessage(err)}`));
    } finally {
      setBusy(null);
    }
  };
  const run = async (dryRun: boolean) => {
    if (!file) return;
    setBusy(dryRun ? 'preview' : 'import');
    setError(null);
    try {
      const result = await invoke('credentials:import', {
        body: {
          format,
          content: file.content,
          encoding: file.encoding,
          dryRun,
          shareWith: share.share === 'all' ? 'all' : share.keyIds,
        },
      });
      if (dryRun) setPlan(result);
      else {
        setDone(result);
        // Imported: nothing of the file stays in the window.
        setFile(null);
        setPlan(null);
        void reload();
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  const preview = (e: FormEvent) => {
    e.preventDefault();
    void run(true);
  };

  const toSave = plan ? plan.created + plan.merged : 0;
  const where = whereInFile(error);
  return (
    <section className="card" aria-labelledby="import-title">
      <div className="card-header">
        <h2 id="import-title" tabIndex={-1} data-view-heading>
          Import saved logins
        </h2>
      </div>
      <p className="muted">
        From a browser’s or password manager’s export file. The file is read once and never stored; the preview shows
        what would be added before anything is saved. Delete the export file afterwards: it holds your passwords.
      </p>
      <form className="form-grid" onSubmit={preview} noValidate aria-label="Import saved logins" data-primary-form>
        <Field label="Exported from">
          <select
            value={format}
            onChange={(e) => {
              setFormat(e.target.value as ImportFormat);
              changed();
            }}
          >
            {IMPORT_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_NAMES[f]}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Export file"
          hint={file ? `${file.name} · ${formatBytes(file.size)}` : `A ${FORMAT_FILES[format]} file.`}
        >
          <input
            type="file"
            accept={FORMAT_FILES[format]}
            onChange={(e) => void choose(e.target.files?.[0])}
            data-testid="import-file"
          />
        </Field>
        <SharingPicker
          share={share.share}
          keyIds={share.keyIds}
          keys={keys}
          onRetry={() => void loadKeys()}
          onChange={(s, keyIds) => {
            setShare({ share: s, keyIds });
            changed();
          }}
        />
        <div className="form-actions span-2">
          <button type="submit" className="btn btn-secondary" disabled={!file || busy !== null}>
            {busy === 'preview' ? 'Reading the file…' : 'Preview'}
          </button>
          {plan ? (
            <button
              type="button"
              className="btn btn-primary"
              disabled={toSave === 0 || busy !== null}
              onClick={() => void run(false)}
            >
              {busy === 'import' ? 'Importing…' : `Import ${toSave}`}
            </button>
          ) : null}
          <button type="button" className="btn btn-secondary" onClick={onDone}>
            {done ? 'Done' : 'Cancel'}
          </button>
        </div>
      </form>
      {error ? <ApiErrorBanner title={file ? 'The file was not imported' : 'No file to import'} error={error} /> : null}
      {where ? (
        <p className="error-text" data-testid="import-where">
          {where}
        </p>
      ) : null}
      {shown ? (
        <div ref={resultRef} className="import-result" data-testid={done ? 'import-done' : 'import-preview'}>
          <div className={`banner ${done ? 'banner-success' : 'banner-info'}`} role="status">
            <div>
              <strong>{done ? 'Imported' : 'Preview: nothing is saved yet'}</strong>
              <p data-testid="import-counts">
                {shown.created} new · {shown.merged} merged into saved logins · {shown.skipped} skipped
              </p>
            </div>
          </div>
          <DataTable
            label={done ? 'Imported items' : 'Items in the file'}
            compact
            rows={shown.items}
            rowKey={(i, n) => `${i.at}-${n}`}
            rowTestId="import-item"
            columns={COLUMNS}
          />
        </div>
      ) : null}
    </section>
  );
}
