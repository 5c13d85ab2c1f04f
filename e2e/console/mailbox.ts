import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { mimeOf } from '@sino/providers/testing';

// Sino's own mail in the browser tests: e2e/servidor.ts gives the server an SMTP server that
// keeps each message in E2E_MAIL_DIR (`<n>.eml`, then `<n>.json` with its envelope).

export interface Mail {
  subject: string;
  text: string;
  html: string;
}

/** The mails to `email`, oldest first. */
function mailsTo(email: string): Mail[] {
  const folder = process.env.E2E_MAIL_DIR;
  if (!folder || !existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .filter((name) =>
      (JSON.parse(readFileSync(join(folder, name), 'utf8')) as { to: string[] }).to.includes(
        email.toLowerCase(),
      ),
    )
    .map((name) => {
      const { headers, parts } = mimeOf(readFileSync(join(folder, name.replace(/json$/, 'eml'))));
      const of = (type: string) =>
        parts
          .find((p) => (p.headers['content-type'] ?? '').startsWith(type))
          ?.body.toString('utf8') ?? '';
      return { subject: headers.subject ?? '', text: of('text/plain'), html: of('text/html') };
    });
}

/**
 * The newest mail to `email` holding a console link to `page` (`accept-invitation`,
 * `verify-email`, `reset-password`), waiting for it (Sino sends after answering); answers the
 * mail and the link's path and query, to open on the server under test.
 */
export async function mailedLink(
  email: string,
  page: string,
): Promise<{ mail: Mail; path: string; token: string }> {
  const pattern = new RegExp(`https?://[^\\s"<>]+/console/${page}\\?token=([A-Za-z0-9_-]{43})`);
  let found: { mail: Mail; match: RegExpExecArray } | undefined;
  await expect
    .poll(
      () => {
        for (const mail of mailsTo(email).reverse()) {
          const match = pattern.exec(mail.text);
          if (match) {
            found = { mail, match };
            return true;
          }
        }
        return false;
      },
      { message: `a mail to ${email} with a ${page} link`, timeout: 15_000 },
    )
    .toBe(true);
  const { mail, match } = found!;
  // The HTML part carries the same link as the text part.
  expect(mail.html).toContain(match[0]);
  const url = new URL(match[0]);
  return { mail, path: url.pathname + url.search, token: match[1]! };
}
