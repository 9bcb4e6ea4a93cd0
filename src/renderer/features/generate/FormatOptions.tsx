import { ASPECT_RATIOS, type AspectRatio, type OutputFormat } from '../../../shared/video.schema.js';
import { Field } from '../../components/Field';

const OUTPUTS = [
  ['webm', 'WebM (VP9)'],
  ['gif', 'Animated GIF preview'],
  ['vtt', 'Captions as .vtt'],
] as const;

/** The frame shape and the files to make besides the MP4. */
export function FormatOptions({
  aspectRatio,
  outputs,
  hasCaptions,
  onAspectRatio,
  onOutputs,
}: {
  aspectRatio: AspectRatio;
  outputs: OutputFormat[];
  hasCaptions: boolean;
  onAspectRatio: (a: AspectRatio) => void;
  onOutputs: (o: OutputFormat[]) => void;
}) {
  return (
    <div className="form-grid format-options">
      <Field label="Aspect ratio">
        {/* The options are ASPECT_RATIOS, so the value chosen is one of them. */}
        <select value={aspectRatio} onChange={(e) => onAspectRatio(e.target.value as AspectRatio)}>
          {ASPECT_RATIOS.map((a) => (
            <option key={a} value={a}>
              {a}
              {a === '9:16' ? ' portrait' : a === '16:9' ? ' landscape' : a === '1:1' ? ' square' : ' feed post'}
            </option>
          ))}
        </select>
      </Field>
      <fieldset className="outputs-choice">
        <legend>Files</legend>
        <label className="checkbox">
          <input type="checkbox" checked disabled />
          MP4 (always)
        </label>
        {OUTPUTS.filter(([f]) => f !== 'vtt' || hasCaptions).map(([format, label]) => (
          <label key={format} className="checkbox">
            <input
              type="checkbox"
              checked={outputs.includes(format)}
              onChange={(e) => onOutputs(e.target.checked ? [...outputs, format] : outputs.filter((o) => o !== format))}
            />
            {label}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
