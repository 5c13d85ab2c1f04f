import { flag, optional, required } from '../credentials.js';
import { badCredentials } from '../errors.js';
import { defineAdapter } from '../define.js';
import { endpointOf, smtpAdapter, tlsOptionsOf } from '../smtp.js';

/**
 * Custom SMTP: any SMTP server, through nodemailer's pooled SMTP transport
 * (https://nodemailer.com/smtp/). TLS from the start (`secure`), STARTTLS required or ignored,
 * the server's own TLS options, and DKIM signing (domain, private key, selector) as the
 * integration sets them. `check()` is nodemailer's `verify()`: connect, upgrade, log in.
 */
export const nodemailer = defineAdapter({
  providerId: 'nodemailer',
  channel: 'email',
  create(context) {
    const { credentials } = context;
    return smtpAdapter(context, () => {
      const port = Number(required(credentials, 'port'));
      if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw badCredentials('The SMTP port is not a port number');
      const user = optional(credentials, 'user');
      const pass = optional(credentials, 'password');
      const domainName = optional(credentials, 'domain');
      const privateKey = optional(credentials, 'secretKey');
      const keySelector = optional(credentials, 'accountSid');
      return {
        ...endpointOf(context, required(credentials, 'host'), port),
        secure: flag(credentials, 'secure'),
        requireTls: flag(credentials, 'requireTls'),
        ignoreTls: flag(credentials, 'ignoreTls'),
        // Servers that relay without a login get none.
        auth: user && pass ? { user, pass } : undefined,
        tls: tlsOptionsOf(credentials, 'tlsOptions'),
        // DKIM needs all three; a partial setup signs nothing, as in Novu.
        dkim:
          domainName && privateKey && keySelector
            ? { domainName, privateKey, keySelector }
            : undefined,
      };
    });
  },
});
