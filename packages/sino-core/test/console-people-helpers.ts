import { expect } from 'vitest';
import { hashPassword } from '@locadora/login';
import { mimeOf, type SmtpPeer } from '@sino/providers/testing';
import { createAccountRepository } from '../src/modules/accounts/repository.js';
import type { SinoTestApp } from './harness.js';

/** Helpers of the console people tests (invitations, sign-up, reset, erasure). */
export const bearer = (token: string) => `Bearer ${token}`;

const cookieOf = (setCookie: string | string[] | undefined) =>
  [setCookie ?? []].flat().find((c) => c.startsWith('sino_refresh='));

/** The refresh token a sign-in's answer set, if it set one. */
export const refreshOf = (setCookie: string | string[] | undefined) =>
  cookieOf(setCookie)?.split(';')[0]!.slice('sino_refresh='.length);

export interface Person {
  email: string;
  password: string;
  firstName: string;
}

/** A person with a password, verified and active, member of the organization with `role`. */
export async function addPerson(
  t: SinoTestApp,
  person: Person,
  organizationId: string,
  role: 'admin' | 'member',
): Promise<string> {
  const accounts = createAccountRepository(t.db);
  const user = await accounts.createUser({
    email: person.email,
    firstName: person.firstName,
    passwordHash: await hashPassword(person.password),
    status: 'active',
    emailVerifiedAt: new Date(),
  });
  await accounts.addMember(organizationId, user.id, role);
  return user.id;
}

/** Signs in with e-mail and password; answers the access token and the refresh token. */
export async function signIn(
  t: SinoTestApp,
  person: { email: string; password: string },
  secrets: (label: string, values: string[]) => void,
) {
  const r = await t.api('POST', '/v1/auth/login', {
    authorization: null,
    body: { email: person.email, password: person.password },
  });
  expect(r.statusCode, r.body).toBe(200);
  const data = r.json().data as { token: string; organizationId: string; environmentId: string };
  const refresh = refreshOf(r.headers['set-cookie'])!;
  secrets('console token', [data.token, refresh]);
  return { ...data, refresh };
}

/** The mail the peer received for `to`, waiting for it (the services send after answering). */
export async function mailTo(peer: SmtpPeer, to: string, count = 1, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = peer.messages.filter((m) => m.to.includes(to.toLowerCase()));
    if (mails.length >= count) return mails[count - 1]!;
    if (Date.now() > deadline) throw new Error(`no mail ${count} to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The text and HTML parts of a received mail, and its subject. */
export function partsOf(raw: Buffer) {
  const { headers, parts } = mimeOf(raw);
  const of = (type: string) =>
    parts.find((p) => (p.headers['content-type'] ?? '').startsWith(type))?.body.toString('utf8');
  return {
    subject: headers.subject ?? '',
    from: headers.from ?? '',
    text: of('text/plain') ?? '',
    html: of('text/html') ?? '',
  };
}

/** The token of the console link `page` in a mail's text part (and the HTML's same link). */
export function tokenIn(raw: Buffer, publicUrl: string, page: string): string {
  const { text, html } = partsOf(raw);
  const prefix = `${publicUrl}/console/${page}?token=`;
  const at = text.indexOf(prefix);
  expect(at, `a ${page} link in the mail`).toBeGreaterThanOrEqual(0);
  const token = /^[A-Za-z0-9_-]+/.exec(text.slice(at + prefix.length))![0];
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(html).toContain(`${prefix}${token}`);
  return token;
}
