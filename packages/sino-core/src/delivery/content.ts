import type { Attachment } from '@sino/providers';

/**
 * The preheader, hidden at the top of the HTML: mail clients show the first text of a message
 * beside its subject, and this is the usual markup that makes it that text and nothing else.
 */
export function withPreheader(html: string, preheader: string | undefined): string {
  if (!preheader) return html;
  const hidden = `<div style="display:none;max-height:0;overflow:hidden;mso-hide:all" aria-hidden="true">${escapeHtml(preheader)}</div>`;
  // A whole document (an email in its layout): first thing in its body.
  const body = /<body\b[^<>]*>/i.exec(html);
  if (body) {
    const at = body.index + body[0].length;
    return `${html.slice(0, at)}${hidden}${html.slice(at)}`;
  }
  return `${hidden}${html}`;
}

let toPlainText: ((html: string) => string) | undefined;

/**
 * The plain-text part of an email, from the same rendered HTML (links kept as `text [url]`).
 * html-to-text and its parser (about 40 modules) load at the first e-mail rather than at every
 * start; the options are compiled once, compiling being most of a conversion's cost.
 */
export async function plainTextOf(html: string): Promise<string> {
  if (!toPlainText) {
    const { compile } = await import('html-to-text');
    toPlainText ??= compile({
      wordwrap: 78,
      selectors: [
        { selector: 'img', format: 'skip' },
        { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      ],
    });
  }
  return toPlainText(html);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** At most this many bytes of attachments per email, decoded (providers refuse more). */
const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

/**
 * The trigger's attachments (Novu's `payload.attachments`: `{file: base64, name, mime}`),
 * decoded. Entries that are not well formed are left out and named in `problems`.
 */
export function attachmentsOf(payload: Record<string, unknown>): {
  attachments: Attachment[];
  problems: string[];
} {
  const given = payload['attachments'];
  if (!Array.isArray(given)) return { attachments: [], problems: [] };
  const attachments: Attachment[] = [];
  const problems: string[] = [];
  let total = 0;
  given.forEach((a: unknown, index) => {
    const { file, name, mime } = (a ?? {}) as Record<string, unknown>;
    if (typeof file !== 'string' || typeof name !== 'string' || name.trim() === '') {
      problems.push(`attachment ${index + 1} needs a base64 "file" and a "name"`);
      return;
    }
    const content = Buffer.from(file, 'base64');
    total += content.length;
    if (total > MAX_ATTACHMENT_BYTES) {
      problems.push(
        `attachment ${index + 1} (${name}) goes over ${MAX_ATTACHMENT_BYTES} bytes in all`,
      );
      return;
    }
    attachments.push({
      name,
      mime: typeof mime === 'string' && mime ? mime : 'application/octet-stream',
      content,
    });
  });
  return { attachments, problems };
}
