import { useEffect, useRef, type InputHTMLAttributes, type TextareaHTMLAttributes } from 'react';

type Common = { value: string; onValue: (value: string) => void };

/**
 * A text control for a secret that React never writes into the page's markup: a controlled input gets its
 * value mirrored into the `value` attribute (so the DOM, and anything that serializes it, would hold what the
 * person typed). Here the control is uncontrolled and only its `value` property follows `value`.
 */
export function SecretInput({
  value,
  onValue,
  ...rest
}: Common & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'defaultValue' | 'onChange'>) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current && ref.current.value !== value) ref.current.value = value;
  }, [value]);
  return <input ref={ref} defaultValue="" onChange={(e) => onValue(e.target.value)} {...rest} />;
}

/** The text-area counterpart of SecretInput (notes). */
export function SecretTextArea({
  value,
  onValue,
  ...rest
}: Common & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'defaultValue' | 'onChange'>) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (ref.current && ref.current.value !== value) ref.current.value = value;
  }, [value]);
  return <textarea ref={ref} defaultValue="" onChange={(e) => onValue(e.target.value)} {...rest} />;
}
