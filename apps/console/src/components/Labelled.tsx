import { useId, type ReactNode } from 'react';
import type { FieldError } from 'react-hook-form';

/**
 * A labelled control with its hint and error announced with it (aria-describedby): the one
 * shape of every form row; Field (an input) and TextAreaField are made with it.
 */
export function Labelled({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: FieldError | undefined;
  hint?: string;
  children: (props: {
    id: string;
    'aria-invalid'?: true;
    'aria-describedby'?: string;
  }) => ReactNode;
}) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(error && { 'aria-invalid': true as const }),
        ...(described && { 'aria-describedby': described }),
      })}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error?.message && (
        <p id={`${id}-error`} className="field-error">
          {error.message}
        </p>
      )}
    </div>
  );
}
