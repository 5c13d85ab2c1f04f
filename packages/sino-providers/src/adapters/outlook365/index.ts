import { required } from '../credentials.js';
import { endpointOf, smtpAdapter } from '../smtp.js';
import { defineAdapter } from '../define.js';

/**
 * Microsoft 365 / Outlook.com mailboxes over SMTP AUTH client submission
 * (https://learn.microsoft.com/en-us/exchange/mail-flow-best-practices/how-to-set-up-a-multifunction-device-or-application-to-send-email-using-microsoft-365-or-office-365):
 * smtp.office365.com:587 with STARTTLS required, logged in as the From mailbox with its
 * password. `check()` is nodemailer's `verify()`: connect, upgrade, log in.
 */
export const outlook365 = defineAdapter({
  providerId: 'outlook365',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    return smtpAdapter(context, () => ({
      ...endpointOf(context, 'smtp.office365.com', 587),
      secure: false,
      requireTls: true,
      ignoreTls: false,
      auth: { user: required(credentials, 'from'), pass: required(credentials, 'password') },
    }));
  },
});
