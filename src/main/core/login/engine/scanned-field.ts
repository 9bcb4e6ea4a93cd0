// A form field as the page scan (form-scan.ts, run in the page) reports it; the DOM helpers and the steps read it.

export type FieldKind =
  'text' | 'email' | 'tel' | 'number' | 'password' | 'checkbox' | 'radio' | 'select' | 'textarea' | 'other';

export interface ScannedField {
  /** Marker id, see MARK_ATTR. */
  id: string;
  kind: FieldKind;
  name: string;
  htmlId: string;
  label: string;
  placeholder: string;
  ariaLabel: string;
  autocomplete: string;
  /** name/id/label/placeholder/aria text, camelCase split. */
  descriptor: string;
  editable: boolean;
  /** Inside an `inert` subtree (typically behind a modal dialog): cannot be typed into yet. */
  inert: boolean;
  hasValue: boolean;
  /** value attribute of a radio/checkbox option (an option identifier, never user data). */
  optionValue?: string;
  score: number;
}
