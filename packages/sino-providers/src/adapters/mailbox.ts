import type { EmailAddress } from './types.js';

/** Characters a display name may carry without quotes (RFC 5322 atext, space, any letter). */
const PLAIN_NAME = /^[\p{L}\p{N}!#$%&'*+\-/=?^_`{|}~ ]+$/u;

/**
 * An address as one header string, `Name <email>`, for the APIs that take the sender that way
 * (Mailgun, Postmark, Resend). A name with specials (a comma, a dot, quotes) is quoted, or the
 * provider would read it as several addresses.
 */
export function mailbox(address: EmailAddress): string {
  const name = address.name?.trim();
  if (!name) return address.email;
  const shown = PLAIN_NAME.test(name) ? name : `"${name.replace(/[\\"]/g, '\\$&')}"`;
  return `${shown} <${address.email}>`;
}
