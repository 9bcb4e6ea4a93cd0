// A form's errors: what the form finds before sending and what a failed call says about its fields,
// shown on the fields (red, with the message under them) and the first invalid field focused.
import { useCallback, useEffect, useRef, useState } from 'react';
import { fieldErrorsFrom, isInputError, type FieldErrors, type FieldLabels } from './field-errors';

/** Focuses (and scrolls to) the first control marked invalid inside `root`. */
export function focusFirstInvalid(root: HTMLElement | null): void {
  const target = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!target) return;
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: 'center', behavior: 'smooth' });
}

export interface FormErrors {
  /** Put on the <form>: the first invalid field inside it gets the focus. */
  formRef: React.RefObject<HTMLFormElement | null>;
  errors: FieldErrors;
  /** A failure that is not about a field (shown as a banner), or null. */
  failure: unknown;
  /** Input problems the form has no field for. */
  unplaced: string[];
  /** Shows errors found before sending; true when there are none (go ahead). */
  check(found: FieldErrors): boolean;
  /** A failed call: its input problems on the fields, anything else as `failure`. */
  fail(err: unknown): void;
  /** Clears one field's error (as the person edits it) or all of them. */
  clear(field?: string): void;
}

export function useFormErrors(labels: FieldLabels): FormErrors {
  const formRef = useRef<HTMLFormElement | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [unplaced, setUnplaced] = useState<string[]>([]);
  // Bumped on every submit that found errors, so the focus moves even when the errors are the same.
  const [attempt, setAttempt] = useState(0);
  const labelsRef = useRef(labels);
  labelsRef.current = labels;

  useEffect(() => {
    if (attempt > 0) focusFirstInvalid(formRef.current);
  }, [attempt]);

  const check = useCallback((found: FieldErrors) => {
    setErrors(found);
    setFailure(null);
    setUnplaced([]);
    const ok = Object.keys(found).length === 0;
    if (!ok) setAttempt((n) => n + 1);
    return ok;
  }, []);

  const fail = useCallback((err: unknown) => {
    if (isInputError(err)) {
      const { fields, unplaced: rest } = fieldErrorsFrom(err, labelsRef.current);
      if (Object.keys(fields).length > 0) {
        setErrors(fields);
        setUnplaced(rest);
        setFailure(null);
        setAttempt((n) => n + 1);
        return;
      }
    }
    setErrors({});
    setUnplaced([]);
    setFailure(err);
  }, []);

  const clear = useCallback((field?: string) => {
    if (field === undefined) {
      setErrors({});
      setFailure(null);
      setUnplaced([]);
      return;
    }
    setErrors((all) => {
      if (!(field in all)) return all;
      const { [field]: _gone, ...rest } = all;
      return rest;
    });
  }, []);

  return { formRef, errors, failure, unplaced, check, fail, clear };
}
