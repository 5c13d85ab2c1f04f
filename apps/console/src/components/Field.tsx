import type { InputHTMLAttributes } from 'react';
import type { FieldError } from 'react-hook-form';
import { Labelled } from './Labelled';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: FieldError | undefined;
  hint?: string;
}

/** A labelled input whose error and hint are announced with it (aria-describedby). */
export function Field({ label, error, hint, ...input }: FieldProps) {
  return (
    <Labelled label={label} error={error} hint={hint}>
      {(control) => <input {...control} {...input} />}
    </Labelled>
  );
}
