import { useRef, useState } from 'react';
import { captionsProblem, isCaptionsReference, MAX_CAPTION_BYTES } from '../../../shared/captions-format.js';
import type { InputVariable } from '../../../shared/ipc-contract.js';
import { Field } from '../../components/Field';

/** The part of a variable's value this field edits (VariableValue of VariableInput). */
interface CaptionsValue {
  text?: string;
  /** The local file the text was loaded from, for display. */
  fileName?: string;
}

/** What the file chooser offers: SRT and WebVTT, by extension and by type. */
const ACCEPT = '.srt,.vtt,text/vtt,application/x-subrip,text/srt';

/**
 * A captions variable: SRT or WebVTT text typed or pasted, a local .srt/.vtt read into the text (in the window, nothing
 * uploaded), or the storage key of a captions upload (the Uploads screen) pasted as the value.
 */
export function CaptionsInput<V extends CaptionsValue>({
  variable: v,
  value,
  error,
  onChange,
}: {
  variable: InputVariable;
  value: V;
  error?: string;
  onChange: (value: V) => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const load = async (file: File | undefined) => {
    if (!file) return;
    setLoadError(null);
    if (file.size > MAX_CAPTION_BYTES) {
      setLoadError(`${file.name} is larger than the ${MAX_CAPTION_BYTES / 1024} KB captions may have.`);
      return;
    }
    const text = await file.text();
    // Said now rather than at Generate: the service answers the same (it names the line, never the text).
    const problem = captionsProblem(text);
    if (problem) setLoadError(`${file.name} is ${problem}.`);
    else onChange({ ...value, text, fileName: file.name });
  };

  const given =
    v.description ??
    'SRT or WebVTT text (timing kept as in the file), or the storage key of a captions file from Uploads.';
  // Said, so a person knows what an empty field gives: the default text shows as the placeholder, a file by its key.
  const defaultFile = v.default_value && isCaptionsReference(v.default_value) ? v.default_value : undefined;
  const hint = !v.default_value
    ? given
    : `${given} Left empty: the template's default ${defaultFile ? `file ${defaultFile}` : 'captions'}.`;
  return (
    <>
      <Field
        label={v.label}
        required={v.required && !v.default_value}
        error={error ?? loadError}
        hint={value.fileName ? `${hint} Loaded from ${value.fileName}.` : hint}
        aside={
          <button type="button" className="btn btn-secondary btn-small" onClick={() => fileInput.current?.click()}>
            Load from file…
          </button>
        }
      >
        <textarea
          rows={4}
          className="mono"
          value={value.text ?? ''}
          placeholder={
            v.placeholder ??
            (v.default_value && !defaultFile ? v.default_value : 'WEBVTT\n\n00:00.000 --> 00:02.000\nHello')
          }
          onChange={(e) => onChange({ ...value, text: e.target.value, fileName: undefined })}
        />
      </Field>
      <input
        ref={fileInput}
        type="file"
        accept={ACCEPT}
        hidden
        data-testid={`captions-file-${v.key}`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = ''; // the same file may be chosen again after an edit
          void load(file);
        }}
      />
    </>
  );
}
