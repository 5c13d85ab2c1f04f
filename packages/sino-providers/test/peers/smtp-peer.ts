import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/** A message as the peer received it. */
export interface SmtpReceived {
  /** MAIL FROM. */
  from: string;
  /** RCPT TO, the accepted ones. */
  to: string[];
  /** The message as sent after DATA. */
  raw: Buffer;
  text(): string;
  /** Whether the session was under TLS (secure from the start or after STARTTLS). */
  secure: boolean;
  /** The user the session logged in as, if it did. */
  user: string | undefined;
}

export interface SmtpLogin {
  method: string;
  user: string | undefined;
  password: string | undefined;
  secure: boolean;
}

export interface SmtpPeerOptions {
  /** A certificate: offered with STARTTLS, or from the first byte when `secure`. */
  tls?: { key: string; cert: string } | undefined;
  secure?: boolean | undefined;
  /** The only login accepted; without it any login is accepted (and recorded). */
  login?: { user: string; password: string } | undefined;
  /** Called with each message as it arrives (a test server writing them where tests read). */
  onMessage?: ((message: SmtpReceived) => void) | undefined;
}

export interface SmtpPeer {
  host: string;
  port: number;
  /** `smtp://127.0.0.1:<port>`, as an adapter context's `baseUrl`. */
  url: string;
  messages: SmtpReceived[];
  logins: SmtpLogin[];
  /** Answers RCPT TO for `address` with this reply (e.g. 450 or 550) from now on. */
  refuse(address: string, code: number, text: string): void;
  /** Forgets what was received and refused. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A local SMTP server standing in for a provider's (smtp-server): it records the envelope,
 * the raw message and the login of every session, and refuses the recipients a test chose.
 */
export async function startSmtpPeer(options: SmtpPeerOptions = {}): Promise<SmtpPeer> {
  const messages: SmtpReceived[] = [];
  const logins: SmtpLogin[] = [];
  const refusals = new Map<string, { code: number; text: string }>();
  const refusal = (code: number, text: string) =>
    Object.assign(new Error(text), { responseCode: code });
  const server = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 100,
    secure: options.secure ?? false,
    // Without a certificate of the test's, no STARTTLS at all (smtp-server has a built-in one).
    ...(options.tls
      ? { key: options.tls.key, cert: options.tls.cert }
      : { disabledCommands: ['STARTTLS'] }),
    // A login over plain text is the test's choice (Custom SMTP without TLS).
    allowInsecureAuth: true,
    authOptional: true,
    onAuth(auth, session, callback) {
      logins.push({
        method: auth.method,
        user: auth.username,
        password: auth.password ?? undefined,
        secure: session.secure,
      });
      const { login } = options;
      if (login && (auth.username !== login.user || auth.password !== login.password))
        return callback(refusal(535, '5.7.8 Authentication credentials invalid'));
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      const refused = refusals.get(address.address.toLowerCase());
      if (refused) return callback(refusal(refused.code, refused.text));
      callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const mailFrom = session.envelope.mailFrom;
        const message: SmtpReceived = {
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: () => raw.toString('utf8'),
          secure: session.secure,
          user: typeof session.user === 'string' ? session.user : undefined,
        };
        messages.push(message);
        options.onMessage?.(message);
        callback(null, 'Queued as PEER1');
      });
    },
  });
  // A client that gives up mid-handshake (an untrusted certificate) is no failure of the peer.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    logins,
    refuse: (address, code, text) => void refusals.set(address.toLowerCase(), { code, text }),
    reset() {
      messages.splice(0);
      logins.splice(0);
      refusals.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whether the `openssl` command is there to make a test certificate. */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A throwaway self-signed certificate for 127.0.0.1 and localhost, made with `openssl`. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sino-smtp-peer-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One leaf of a MIME message: its headers (lower-case names) and its decoded body. */
export interface MimePart {
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * The headers of a MIME message and its leaf parts, decoded (base64, quoted-printable): enough
 * for a test to read what an adapter composed.
 */
export function mimeOf(raw: Buffer | string): {
  headers: Record<string, string>;
  parts: MimePart[];
} {
  const { headers, body } = split(raw.toString());
  return { headers, parts: leaves(headers, body) };
}

function split(entity: string) {
  const end = entity.search(/\r?\n\r?\n/);
  const head = end < 0 ? entity : entity.slice(0, end);
  const body = end < 0 ? '' : entity.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function leaves(headers: Record<string, string>, body: string): MimePart[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (!boundary) return [{ headers, body: decode(headers['content-transfer-encoding'], body) }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .flatMap((chunk) => {
      const part = split(chunk.replace(/^\r?\n/, ''));
      return leaves(part.headers, part.body.replace(/\r?\n$/, ''));
    });
}

function decode(encoding: string | undefined, body: string): Buffer {
  switch (encoding?.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return Buffer.from(
        body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      );
    default:
      return Buffer.from(body);
  }
}
