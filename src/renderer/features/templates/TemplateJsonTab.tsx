import { Field } from '../../components/Field';

/** The template as JSON (the request body): edited here, applied to the form when the Form tab opens. */
export function TemplateJsonTab({
  text,
  error,
  onChange,
}: {
  text: string;
  error: string | null;
  onChange: (text: string) => void;
}) {
  return (
    <Field
      label="Template JSON"
      error={error}
      hint="The body POST /api/templates takes. Changes apply to the form when you switch back to it or save."
    >
      <textarea
        className="mono template-json"
        rows={22}
        spellCheck={false}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}
