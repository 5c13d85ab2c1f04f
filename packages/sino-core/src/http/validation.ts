import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { findUnstorableInput, type UnstorableReason } from '@locadora/db';

const unstorable: Record<UnstorableReason, string> = {
  nul: 'must not contain null characters',
  'unpaired-surrogate': 'must contain only valid Unicode text',
  'too-deep': 'is nested too deeply',
};

/**
 * Request validation with zod, failing with the ZodError itself so the error handler can word
 * each issue as Novu (class-validator) does: "limit must not be less than 1". Before the
 * route's schema, every part of every request is checked for text the database cannot store
 * (one rule at the edge, so no route can reach the database with it).
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const found = findUnstorableInput(data);
    if (found) {
      const issue = {
        code: 'custom' as const,
        path: found.path,
        message: unstorable[found.reason],
      };
      // ZodRealError: an Error, as Fastify requires of a validation failure (ZodError is not).
      return { error: new z.ZodRealError([{ ...issue, input: undefined }]) };
    }
    // With the input on each issue, a missing field ("should not be empty") is told apart from a
    // field of the wrong type ("must be a string").
    const result = schema.safeParse(data, { reportInput: true });
    return result.success ? { value: result.data } : { error: result.error };
  };

type Issue = z.core.$ZodIssue;

/** One issue as class-validator words it, without the field name. */
function phrase(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'should not be empty';
      if (issue.expected === 'int') return 'must be an integer number';
      if (issue.expected === 'record') return 'must be an object';
      return /^[aeiou]/.test(issue.expected)
        ? `must be an ${issue.expected}`
        : `must be a ${issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) <= 1) return 'should not be empty';
      if (issue.origin === 'array' && Number(issue.minimum) <= 1) return 'should not be empty';
      if (issue.origin === 'array') return `must contain at least ${issue.minimum} elements`;
      if (issue.origin === 'string')
        return `must be longer than or equal to ${issue.minimum} characters`;
      return `must not be less than ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'array') return `must contain no more than ${issue.maximum} elements`;
      if (issue.origin === 'string')
        return `must be shorter than or equal to ${issue.maximum} characters`;
      return `must not be greater than ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of the following values: ${issue.values.join(', ')}`;
    case 'invalid_union':
      // A discriminated union whose discriminator names no option (a filter's `on`, ...).
      if ('options' in issue && issue.options?.length)
        return `must be one of the following values: ${issue.options.join(', ')}`;
      return issue.message;
    case 'invalid_format':
      // A schema's own wording ("must be locale", ...) wins over zod's generic one.
      if (issue.format === 'email') return 'must be an email';
      return issue.message;
    case 'unrecognized_keys':
      return `property ${issue.keys.join(', ')} should not exist`;
    default:
      return issue.message;
  }
}

/** `field phrase` for each issue; the field is the dotted path inside body, query or params. */
export function validationMessages(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.join('.');
    return field ? `${field} ${phrase(issue)}` : phrase(issue);
  });
}
