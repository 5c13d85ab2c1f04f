// zod/mini: the same checks as zod's classic API in a fraction of its size (the sign-in page
// loads under 150 KB of JavaScript, bench/console-bundle.ts).
import * as z from 'zod/mini';

export { z };

// The server's rules, checked before sending so the person sees them at once; the server
// checks them again.
export const emailField = z.email({ error: 'Enter a valid e-mail address' });
export const newPasswordField = z
  .string()
  .check(
    z.minLength(12, { error: 'Use at least 12 characters' }),
    z.maxLength(1000, { error: 'Use at most 1000 characters' }),
  );
export const nameField = (what: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: `Enter your ${what}` }),
      z.maxLength(100, { error: 'Use at most 100 characters' }),
    );
/** An optional text field: left empty, it is left out of the request. */
export const optionalText = z.optional(
  z.string().check(z.trim(), z.maxLength(100, { error: 'Use at most 100 characters' })),
);
