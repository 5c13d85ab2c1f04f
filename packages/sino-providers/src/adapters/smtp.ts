import { rootCertificates, type ConnectionOptions } from 'node:tls';
import type {
  DKIMOptions,
  NodemailerError,
  SMTPPoolOptions,
  SMTPPoolSentMessageInfo,
  Transporter,
} from 'nodemailer';
import { isEgressRefusal, networkFailure, TLS_CODES } from '../egress/failure.js';
import { publicOnly } from '../egress/policy.js';
import { badCredentials, DeliveryError } from './errors.js';
import { redact } from './http.js';
import type { AdapterContext, Credentials, ProviderAdapter } from './types.js';
import { mailOf } from './mail.js';

/** Where and how an SMTP adapter connects, from its credentials. */
export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when offered. */
  secure: boolean;
  requireTls: boolean;
  ignoreTls: boolean;
  auth?: { user: string; pass: string } | undefined;
  tls?: ConnectionOptions | undefined;
  dkim?: Pick<DKIMOptions, 'domainName' | 'keySelector' | 'privateKey'> | undefined;
}

/**
 * An email adapter speaking SMTP through a nodemailer pooled transport, opened at the first
 * call and kept for the adapter's life: connections are reused across messages, closed by the
 * pool after a while idle, and all of them by `close()`. `settings` is read when the pool
 * opens, so a missing credential fails that call (permanent) rather than the adapter's creation.
 */
export function smtpAdapter(
  context: AdapterContext,
  settings: () => SmtpSettings,
): ProviderAdapter<'email'> {
  let pool: Transporter<SMTPPoolSentMessageInfo> | undefined;
  // nodemailer (about 40 modules) is loaded at the first e-mail rather than at every start;
  // a failed settings() leaves no pool behind, so the next call reads them again.
  const transport = async () => {
    if (pool) return pool;
    const { default: nodemailer } = await import('nodemailer');
    return (pool ??= nodemailer.createTransport(poolOptions(context, settings())));
  };
  return {
    async send(message) {
      let info: SMTPPoolSentMessageInfo;
      try {
        info = await (await transport()).sendMail(mailOf(message));
      } catch (error) {
        throw smtpFailure(error, context);
      }
      return { id: info.messageId, status: replyCode(info.response) };
    },
    async check() {
      try {
        const s = settings();
        await (await transport()).verify();
        return {
          ok: true,
          message: s.auth
            ? 'The SMTP server accepted the connection and the login'
            : 'The SMTP server accepted the connection',
        };
      } catch (error) {
        return { ok: false, message: smtpFailure(error, context).message };
      }
    },
    async close() {
      pool?.close();
      pool = undefined;
    },
  };
}

/** `context.baseUrl` (`smtp://host:port`) overrides the configured host and port. */
export function endpointOf(context: AdapterContext, host: string, port: number) {
  if (!context.baseUrl) return { host, port };
  const url = new URL(context.baseUrl);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : port,
  };
}

/** Node TLS options given as a JSON object or as its text; undefined when absent. */
export function tlsOptionsOf(credentials: Credentials, key: string): ConnectionOptions | undefined {
  let value = credentials[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw badCredentials('The TLS options are not valid JSON');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badCredentials('The TLS options must be a JSON object');
  // TLS options set how to talk, never where: keys that would move the connection are dropped.
  const {
    host: _h,
    port: _p,
    path: _path,
    socket: _s,
    localAddress: _l,
    ...tls
  } = value as Record<string, unknown>;
  return tls as ConnectionOptions;
}

function poolOptions(
  context: AdapterContext,
  settings: SmtpSettings,
): SMTPPoolOptions & { pool: true } {
  const egress = context.egress ?? publicOnly;
  const where = `smtp://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${settings.port}`;
  const options: SMTPPoolOptions & { pool: true } = {
    pool: true,
    // A worker's concurrent e-mails to one relay share these (decision 036).
    maxConnections: 10,
    idleTimeout: 30_000,
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: settings.requireTls,
    ignoreTLS: settings.ignoreTls,
    auth: settings.auth,
    tls: tlsOf(settings.tls, context.tlsCa),
    ...(settings.dkim && { dkim: settings.dkim }),
    connectionTimeout: context.timeoutMs,
    greetingTimeout: context.timeoutMs,
    socketTimeout: context.timeoutMs,
    logger: false,
    // Every connection of the pool under the egress rule (decision 024), the operator's own
    // relay aside: the socket comes from the rule's checked address, and nodemailer upgrades it
    // to TLS itself when `secure`, naming the host for SNI and the certificate.
    ...(!egress.trusts(where) && {
      getSocket(_options, callback) {
        const socket = egress.connect({ host: settings.host, port: settings.port });
        const timer = setTimeout(
          () =>
            socket.destroy(Object.assign(new Error('Connection timed out'), { code: 'ETIMEDOUT' })),
          context.timeoutMs,
        );
        const failed = (error: Error) => {
          clearTimeout(timer);
          callback(error);
        };
        socket.once('error', failed);
        socket.once('connect', () => {
          clearTimeout(timer);
          socket.removeListener('error', failed);
          callback(null, { connection: socket });
        });
      },
    }),
  };
  return options;
}

/** The system's CAs plus the context's (a private relay's, a test peer's). */
function tlsOf(
  tls: ConnectionOptions | undefined,
  extraCa: string | undefined,
): ConnectionOptions | undefined {
  if (!extraCa) return tls;
  const own = tls?.ca === undefined ? [] : Array.isArray(tls.ca) ? tls.ca : [tls.ca];
  return { ...tls, ca: [...rootCertificates, ...own, extraCa] };
}

const replyCode = (response: string | undefined) => {
  const code = Number(/^\d{3}/.exec(response ?? '')?.[0]);
  return Number.isNaN(code) ? undefined : code;
};

/** Reply codes of a RCPT TO that say the mailbox itself is wrong: unavailable, moved, invalid. */
const MAILBOX_CODES = new Set([550, 551, 553]);
/** nodemailer's codes for a connection that failed or ended: another attempt may do better. */
const NETWORK_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'EPROXY', 'EABORT']);
/** Node's codes of a socket that failed (the connection the egress rule opened for the pool). */
const SOCKET_CODES =
  /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE)$/;

/**
 * A nodemailer failure as a `DeliveryError`: the SMTP reply decides when there is one (4xx
 * retryable, 5xx permanent, 550/551/553 to every recipient the recipient's own), otherwise
 * nodemailer's code (a connection failure is retryable; a refused login, TLS upgrade or
 * certificate is permanent, as is a destination the egress rule refuses). The words are the
 * server's, redacted, unless the integration chose the server (Custom SMTP's host): then its
 * class only, since the "server" may be any internal service (decision 024).
 */
export function smtpFailure(error: unknown, context: AdapterContext): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const e = (error ?? {}) as NodemailerError;
  const status = e.responseCode;
  const { kind, words } = classify(e, status);
  const message = context.callerChosen
    ? words
    : redact(String(e.message || error), context.credentials).slice(0, 500);
  return new DeliveryError(kind, message, {
    status,
    cause: error,
    classOnly: context.callerChosen === true,
  });
}

/** The failure's kind, and its class in Sino's words (nothing the server sent but its code). */
function classify(
  e: NodemailerError,
  status: number | undefined,
): { kind: 'retryable' | 'permanent' | 'recipient'; words: string } {
  if (isEgressRefusal(e)) return networkFailure(e, 0);
  if (status !== undefined) {
    const words = `SMTP ${status} in reply to ${e.command ?? 'the session'} (the server's words are not shown)`;
    if (e.command === 'RCPT TO') {
      const refusals = e.rejectedErrors?.length ? e.rejectedErrors : [e];
      if (refusals.every((r) => MAILBOX_CODES.has(r.responseCode ?? 0)))
        return { kind: 'recipient', words };
    }
    // 503 (bad sequence of commands) is a session's state, not a refusal of the message.
    const permanent = status >= 500 && status < 600 && status !== 503;
    return { kind: permanent ? 'permanent' : 'retryable', words };
  }
  // nodemailer checks address syntax before it talks to the server.
  if (e.code === 'EENVELOPE' && /^Invalid recipient/.test(e.message))
    return { kind: 'recipient', words: 'Invalid recipient address' };
  if (e.code === 'ETLS' || TLS_CODES.test(e.originalCode ?? ''))
    return { kind: 'permanent', words: `TLS failed (${e.originalCode ?? e.code})` };
  if (NETWORK_CODES.has(e.code ?? '') || SOCKET_CODES.test(e.code ?? '')) {
    const { words } = networkFailure(e.originalCode ? { code: e.originalCode } : e, 0);
    return { kind: 'retryable', words };
  }
  if (e.code === 'EPROTOCOL')
    return { kind: 'permanent', words: 'The server did not answer as an SMTP server' };
  if (e.code === 'EAUTH') return { kind: 'permanent', words: 'The SMTP login was refused' };
  return { kind: 'permanent', words: `SMTP error${e.code ? ` ${e.code}` : ''}` };
}
