import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { USER_STATUSES } from '@sino/shared';
import { unauthorized } from '../../errors.js';
import { SESSION_DAYS, type SignedIn } from './service.js';
import type { User } from './repository.js';

// What the console's sign-in routes share (password, invitation, GitHub and Google): the
// person's answer, the refresh cookie, and the session a sign-in opens.

/** The refresh token's cookie: httpOnly, SameSite=Strict, sent to the auth routes only. */
export const REFRESH_COOKIE = 'sino_refresh';
const COOKIE_PATH = '/v1/auth';

export const userWire = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  status: z.enum(USER_STATUSES),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export const userAnswer = (user: User) => ({
  _id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  status: user.status,
  emailVerified: user.emailVerifiedAt !== null,
  createdAt: user.createdAt.toISOString(),
});

export const sessionWire = z.object({
  data: z.object({
    token: z.string(),
    expiresIn: z.number(),
    user: userWire,
    organizationId: z.string(),
    environmentId: z.string(),
  }),
});
/** Routes that need a person signed in, not an API key (Novu answers keys the same). */
export function personOnly(request: FastifyRequest) {
  const actor = request.actor;
  if (actor?.type !== 'user') throw unauthorized('API endpoint not available');
  return actor;
}

/**
 * `personOnly` as a route's `preValidation` hook: a key is answered before its body is read,
 * as Novu's guards run before its validation.
 */
export async function personGuard(request: FastifyRequest): Promise<void> {
  personOnly(request);
}

/** Sets the refresh cookie of a session just opened (password, invitation, GitHub or Google). */
export function setRefresh(request: FastifyRequest, reply: FastifyReply, value: string) {
  reply.setCookie(REFRESH_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: COOKIE_PATH,
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  });
}
export function clearRefresh(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(REFRESH_COOKIE, {
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: COOKIE_PATH,
  });
}

/**
 * A sign-in's answer: the access token and the person, and the refresh cookie set. For routes
 * registered inside `consoleAuthRoutes` (where the cookie plugin is).
 */
export function signedInAnswer(request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn) {
  setRefresh(request, reply, signedIn.refreshToken);
  reply.header('cache-control', 'no-store');
  return {
    data: {
      token: signedIn.token,
      expiresIn: signedIn.expiresIn,
      user: userAnswer(signedIn.user),
      organizationId: signedIn.organizationId,
      environmentId: signedIn.environmentId,
    },
  };
}
