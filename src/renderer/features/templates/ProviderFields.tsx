import { Field } from '../../components/Field';
import { LOCAL_RENDERER_LABEL } from '../../lib/renderer-label';
import type { ProviderDraft } from './template-form-state';

const CHOICES = [
  ['', 'Local renderer (offline draft)'],
  ['fal', 'fal.ai'],
  ['replicate', 'Replicate'],
  ['comfyui', 'ComfyUI'],
] as const;

const MODEL_HINT: Record<string, string> = {
  fal: 'A fal endpoint id, e.g. fal-ai/kling-video/v2/master/text-to-video',
  replicate: 'owner/name, owner/name:version or a version id',
};

/** Which engine makes the videos, and how the template's values reach it ({{key}} placeholders). */
export function ProviderFields({
  provider: p,
  errors,
  onChange,
}: {
  provider: ProviderDraft;
  errors: Record<string, string>;
  onChange: (p: ProviderDraft) => void;
}) {
  const set = (change: Partial<ProviderDraft>) => onChange({ ...p, ...change });
  const hosted = p.name === 'fal' || p.name === 'replicate';
  return (
    <div className="provider-fields span-2">
      <Field
        label="Provider"
        error={errors.provider}
        hint={p.name === '' || p.name === 'local' ? LOCAL_RENDERER_LABEL : undefined}
      >
        <select
          value={p.name === 'local' ? '' : p.name}
          onChange={(e) =>
            set({
              name: e.target.value as ProviderDraft['name'],
              localOptions: e.target.value === '' ? p.localOptions : null,
              workflow: e.target.value === 'comfyui' && !p.workflow ? '{}' : p.workflow,
            })
          }
        >
          {CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      {hosted ? (
        <>
          <Field label="Provider model" required error={errors['provider.model']} hint={MODEL_HINT[p.name]}>
            <input className="mono" value={p.model} onChange={(e) => set({ model: e.target.value })} />
          </Field>
          <Field
            label="Model input (JSON)"
            error={errors['provider.input']}
            hint="The model's own fields; string values may hold {{key}}, {{prompt}}, {{duration_sec}}, {{width}}, {{height}}."
          >
            <textarea
              rows={4}
              className="mono"
              spellCheck={false}
              value={p.input}
              onChange={(e) => set({ input: e.target.value })}
            />
          </Field>
        </>
      ) : null}
      {p.name === 'comfyui' ? (
        <>
          <Field
            label="Workflow (API format JSON)"
            error={errors['provider.workflow']}
            hint="ComfyUI's Export (API); string inputs may hold {{key}} placeholders."
          >
            <textarea
              rows={5}
              className="mono"
              spellCheck={false}
              value={p.workflow}
              onChange={(e) => set({ workflow: e.target.value })}
            />
          </Field>
          <Field
            label="Output node"
            error={errors['provider.output_node']}
            hint="Default: the first node that made a video."
          >
            <input className="mono" value={p.output_node} onChange={(e) => set({ output_node: e.target.value })} />
          </Field>
        </>
      ) : null}
    </div>
  );
}
