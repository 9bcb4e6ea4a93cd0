import { ASPECT_RATIOS, TEMPLATE_CATEGORIES, type TemplateCategory } from '../../../shared/video.schema.js';
import { Field } from '../../components/Field';
import { categoryLabel } from '../../lib/format';
import type { TemplateDraft } from './template-form-state';

const RESOLUTIONS = ['480p', '720p', '1080p'];
const ASPECT_NAMES: Record<string, string> = {
  '16:9': '16:9 landscape',
  '9:16': '9:16 portrait (reels, shorts)',
  '1:1': '1:1 square',
  '4:5': '4:5 feed post',
};

/** Title, category, description, duration, resolution, aspect ratio and the pricing model. */
export function TemplateBasics({
  draft,
  errors,
  set,
}: {
  draft: TemplateDraft;
  errors: Record<string, string>;
  set: <K extends keyof TemplateDraft>(key: K, value: TemplateDraft[K]) => void;
}) {
  const resolutions = RESOLUTIONS.includes(draft.resolution) ? RESOLUTIONS : [...RESOLUTIONS, draft.resolution];
  return (
    <>
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
      <Field label="Pricing model" error={errors.model} hint="The model of the pricing table the credits follow.">
        <input value={draft.model} onChange={(e) => set('model', e.target.value)} />
      </Field>
      <Field label="Resolution" error={errors.resolution}>
        <select value={draft.resolution} onChange={(e) => set('resolution', e.target.value)}>
          {resolutions.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Aspect ratio" error={errors.aspect_ratio}>
        <select value={draft.aspect_ratio} onChange={(e) => set('aspect_ratio', e.target.value)}>
          {ASPECT_RATIOS.map((a) => (
            <option key={a} value={a}>
              {ASPECT_NAMES[a] ?? a}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}
