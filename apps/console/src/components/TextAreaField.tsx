import type { TextareaHTMLAttributes } from 'react';
import type { FieldError } from 'react-hook-form';
import { Labelled } from './Labelled';

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: FieldError | undefined;
  hint?: string;
}

/** Field's multi-line twin: a labelled textarea with its hint and error announced with it. */
export function TextAreaField({ label, error, hint, ...textarea }: TextAreaFieldProps) {
  return (
    <Labelled label={label} error={error} hint={hint}>
      {(control) => <textarea {...control} {...textarea} />}
    </Labelled>
  );
}
