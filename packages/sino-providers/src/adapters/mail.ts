import type { SendMailOptions } from 'nodemailer';
import type { EmailMessage } from './types.js';

/** Header carrying Sino's message id in MIME messages we build (SMTP, SES raw). */
export const SINO_ID_HEADER = 'X-Sino-Message-Id';

/**
 * An email as nodemailer's message fields: used by the SMTP adapters and by SES's raw MIME.
 * Contents are given as strings and buffers only, and file and URL access is refused, so no
 * field can make nodemailer read a file or fetch a URL.
 */
export const mailOf = (message: EmailMessage): SendMailOptions => ({
  from: { name: message.from.name ?? '', address: message.from.email },
  to: message.to,
  // nodemailer puts copies and blind copies in the envelope, and no Bcc header in the message.
  ...(message.cc?.length && { cc: message.cc }),
  ...(message.bcc?.length && { bcc: message.bcc }),
  ...(message.replyTo && { replyTo: message.replyTo }),
  subject: message.subject,
  text: message.text,
  html: message.html,
  attachments: message.attachments?.map((a) => ({
    filename: a.name,
    content: a.content,
    contentType: a.mime,
  })),
  headers: { [SINO_ID_HEADER]: message.id },
  disableFileAccess: true,
  disableUrlAccess: true,
});
