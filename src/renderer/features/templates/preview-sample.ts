// The values a preview renders with: what the person typed as a sample, else the variable's default, else (text)
// its placeholder or label, so a template previews before anyone fills it in.
import type { TemplateInput } from '../../../shared/ipc-contract.js';

type Variable = TemplateInput['input_variables'][number];

export const SAMPLE_CAPTIONS = 'WEBVTT\n\n00:00.000 --> 00:02.000\nSample caption\n';

export function sampleValues(
  variables: Variable[],
  own: Record<string, string>,
): { values: Record<string, string>; missing: string[] } {
  const values: Record<string, string> = {};
  const missing: string[] = [];
  for (const v of variables) {
    const typed = own[v.key]?.trim() ? own[v.key] : undefined;
    const value =
      typed ??
      v.default_value ??
      (v.type === 'text' ? v.placeholder || v.label : v.type === 'captions' ? SAMPLE_CAPTIONS : undefined);
    if (value) values[v.key] = value;
    else if (v.required) missing.push(v.label || v.key);
  }
  return { values, missing };
}
