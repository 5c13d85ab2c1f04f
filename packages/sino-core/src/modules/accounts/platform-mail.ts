import type { Transporter } from 'nodemailer';

/** A message of the installation's own mail: plain text and a simple HTML copy. */
export interface PlatformMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The installation's own mail (`SINO_MAIL_URL`, `SINO_MAIL_FROM`): invitations, password resets
 * and e-mail verifications of console people. Not an environment's integrations, and never an
 * environment's sandbox outbox.
 */
export interface PlatformMail {
  /** False when the operator set no mail: invitation links are then answered to the admin. */
  readonly configured: boolean;
  send(message: PlatformMessage): Promise<void>;
}

export interface PlatformMailSettings {
  /** smtp:// or smtps:// with an optional user:password. A secret: never logged. */
  url?: string | undefined;
  from?: string | undefined;
}

/** Platform mail that sends nothing: the installation has no mail settings. */
export const noPlatformMail: PlatformMail = {
  configured: false,
  async send() {
    throw new Error('Platform mail is not configured (SINO_MAIL_URL)');
  },
};

/** Platform mail over SMTP (nodemailer), or none when `url` is not set. */
export function createPlatformMail(settings: PlatformMailSettings): PlatformMail {
  if (!settings.url) return noPlatformMail;
  const url = new URL(settings.url);
  const secure = url.protocol === 'smtps:';
  // Loaded at the first mail: a start without one never loads nodemailer (scripts/smoke.mjs).
  let transport: Promise<Transporter> | undefined;
  const transporter = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: url.hostname,
        port: url.port ? Number(url.port) : secure ? 465 : 587,
        secure,
        ...(url.username && {
          auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
        }),
        // Nodemailer's own logger stays off: it would write the conversation, credentials included.
        logger: false,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    ));
  const from = settings.from ?? `Sino <no-reply@${url.hostname}>`;
  return {
    configured: true,
    async send(message) {
      try {
        await (await transporter()).sendMail({ from, ...message });
      } catch (error) {
        // The SMTP server's answer may quote the user name: only the kind of failure goes on,
        // and the original error is left behind on purpose.
        const code = (error as { code?: unknown }).code;
        // eslint-disable-next-line preserve-caught-error -- its message may name the SMTP user
        throw new Error(
          `Platform mail could not be sent${typeof code === 'string' ? ` (${code})` : ''}`,
        );
      }
    },
  };
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function message(
  to: string,
  subject: string,
  lines: string[],
  link: { label: string; url: string },
  after: string,
): PlatformMessage {
  return {
    to,
    subject,
    text: [...lines, '', `${link.label}: ${link.url}`, '', after].join('\n'),
    html: [
      ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
      `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
      `<p style="color:#666">${escapeHtml(after)}</p>`,
    ].join('\n'),
  };
}

/** The console's links: `<public>/console/<page>?token=…`. */
export function consoleLink(publicUrl: string, page: string, token: string): string {
  const url = new URL(`console/${page}`, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  url.searchParams.set('token', token);
  return url.toString();
}

export const invitationMessage = (
  to: string,
  input: { organization: string; inviter: string | null; link: string },
) =>
  message(
    to,
    `You are invited to ${input.organization} on Sino`,
    [
      `${input.inviter ?? 'An admin'} invited you to join ${input.organization} on Sino.`,
      'The invitation is for this address only and works once, for 7 days.',
    ],
    { label: 'Accept the invitation', url: input.link },
    'If you did not expect this invitation, you can ignore this message.',
  );

export const passwordResetMessage = (to: string, link: string) =>
  message(
    to,
    'Reset your Sino password',
    [
      'Someone asked to reset the password of your Sino account.',
      'The link works once, for 1 hour.',
    ],
    { label: 'Choose a new password', url: link },
    'If it was not you, ignore this message: your password stays as it is.',
  );

export const verificationMessage = (to: string, link: string) =>
  message(
    to,
    'Confirm your e-mail address for Sino',
    ['Confirm that this address is yours to finish setting up your Sino account.'],
    { label: 'Confirm my address', url: link },
    'The link works once, for 2 days. If you did not sign up, ignore this message.',
  );
