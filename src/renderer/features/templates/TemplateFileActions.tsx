import { useRef, useState } from 'react';
import type { TemplateInput } from '../../../shared/ipc-contract.js';
import { errorMessage, invoke } from '../../lib/api';

/** Export the template as a .json file (the OS save dialog), or import one (its body goes into the form). */
export function TemplateFileActions({
  body,
  onImport,
}: {
  body: TemplateInput;
  onImport: (body: TemplateInput) => void;
}) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState<{ error: boolean; text: string } | null>(null);
  const exportFile = async () => {
    setNote(null);
    const name = `${(body.title || 'template').replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'template'}.json`;
    try {
      const saved = await invoke('exports:saveText', { defaultName: name, text: `${JSON.stringify(body, null, 2)}\n` });
      if (saved.saved) setNote({ error: false, text: `Saved ${saved.name ?? name}` });
    } catch (err) {
      setNote({ error: true, text: errorMessage(err) });
    }
  };
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    setNote(null);
    try {
      const parsed: unknown = JSON.parse(await file.text());
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
      onImport(parsed as TemplateInput);
      setNote({ error: false, text: `Imported ${file.name}: check it, then save.` });
    } catch (err) {
      setNote({ error: true, text: `${file.name} is not a template: ${errorMessage(err)}` });
    } finally {
      if (fileRef.current) fileRef.current.value = '';
    }
  };
  return (
    <div className="detail-actions template-file-actions">
      <button type="button" className="btn btn-secondary btn-small" onClick={() => void exportFile()}>
        Export .json
      </button>
      <button type="button" className="btn btn-secondary btn-small" onClick={() => fileRef.current?.click()}>
        Import .json
      </button>
      <input
        ref={fileRef}
        type="file"
        accept=".json,application/json"
        className="sr-only"
        tabIndex={-1}
        aria-label="Import .json template file"
        data-testid="template-import-file"
        onChange={(e) => void importFile(e.target.files?.[0])}
      />
      {note ? (
        <p className={note.error ? 'field-error' : 'field-hint'} role="status">
          {note.text}
        </p>
      ) : null}
    </div>
  );
}
