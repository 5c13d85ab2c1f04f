import { createHash, randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword, type LoginThrottle } from '@locadora/login';
import type { IdentityProvider, MemberRole } from '@sino/shared';
import { forbidden, notFound, tooManyRequests, unauthorized } from '../../errors.js';
import type { JwtKeys } from '../../jwt.js';
import type { AuditService } from '../audit/service.js';
import type { ConsoleEvents } from '../../realtime/port.js';
import type { AccountRepository, ConsoleContext, User } from './repository.js';

/** The audience of console access tokens: a widget token never opens the console. */
export const CONSOLE_AUDIENCE = 'sino_console';
/** Access tokens are short; the refresh cookie renews them. */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
/** A session not renewed for this long ends. */
export const SESSION_DAYS = 14;

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** 32 random bytes, base64url: refresh tokens and the single-use links' tokens. */
export const newSecret = () => randomBytes(32).toString('base64url');

/**
 * Who may sign in: active people, and people who signed up and have not yet confirmed their
 * address (`new`, as Novu lets them in); an `invited` account has no password yet.
 */
export const canSignIn = (user: Pick<User, 'status'>) =>
  user.status === 'active' || user.status === 'new';

/** A signed-in console session: its access token, and the refresh token for the cookie. */
export interface SignedIn {
  token: string;
  refreshToken: string;
  expiresIn: number;
  user: User;
  organizationId: string;
  environmentId: string;
}

/** A GitHub or Google account, with the e-mail address its provider verified. */
export interface VerifiedIdentity {
  provider: IdentityProvider;
  providerUserId: string;
  email: string;
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  /** What names the person's own organization when one is made for them. */
  displayName: string;
}

/** Why a GitHub or Google sign-in opens no session (the console shows the code). */
export type SignInRefusal =
  | 'signup_closed'
  | 'no_organization'
  | 'account_inactive'
  | 'account_unverified'
  | 'identity_taken';

export class SignInRefused extends Error {
  constructor(readonly code: SignInRefusal) {
    super(`sign-in refused: ${code}`);
    this.name = 'SignInRefused';
  }
}

/** The session a console request acts in. */
export interface SessionRef {
  sessionId: string;
  userId: string;
  organizationId: string;
}

/** What a first start (or the first start after an upgrade) made for an organization. */
export interface AdminCredentials {
  email: string;
  /** Generated and shown once; absent when the operator set it (SINO_ADMIN_PASSWORD). */
  password?: string;
}

/**
 * Console people: sign-in with e-mail and password (argon2id, throttled as Locadora's is),
 * sessions of a short access token and a rotated refresh token, and the context every console
 * request acts in, read fresh (role, session, environment) at each request.
 */
export function createAccountService(deps: {
  accounts: AccountRepository;
  throttle: LoginThrottle;
  keys: JwtKeys;
  audit: AuditService;
  /** Who may make an account by signing in with GitHub or Google; invitations only by default. */
  signUp?: 'open' | 'invitation' | undefined;
  /** Makes a new person's own organization (as the identity service does); answers its id. */
  newOrganization?: ((name: string) => Promise<string>) | undefined;
  /** Closes the live sockets of a session that ended or a person removed. */
  consoleSockets?: Pick<ConsoleEvents, 'disconnect'> | undefined;
  now?: () => Date;
}) {
  const { accounts, keys, audit } = deps;
  const now = deps.now ?? (() => new Date());

  const accessToken = (sessionId: string, userId: string, org: string, env: string) =>
    keys.sign(
      { sid: sessionId, org, env },
      { audience: CONSOLE_AUDIENCE, subject: userId, validity: `${ACCESS_TOKEN_SECONDS}s` },
    );

  const sessionEnd = () => new Date(now().getTime() + SESSION_DAYS * 24 * 60 * 60 * 1000);

  async function openSession(user: User, organizationId: string): Promise<SignedIn> {
    const environment = await accounts.firstEnvironment(organizationId);
    if (!environment) throw forbidden('Your organization has no environment');
    const refreshToken = newSecret();
    const session = await accounts.createSession({
      userId: user.id,
      refreshHash: sha256(refreshToken),
      expiresAt: sessionEnd(),
      organizationId,
      environmentId: environment.id,
    });
    return {
      token: await accessToken(session.id, user.id, organizationId, environment.id),
      refreshToken,
      expiresIn: ACCESS_TOKEN_SECONDS,
      user,
      organizationId,
      environmentId: environment.id,
    };
  }

  /**
   * What a console access token opens now; `undefined` for what is no console token (forged,
   * expired, malformed, another audience's), `null` for a genuine one whose session ended or
   * whose person left the organization.
   */
  async function contextOf(
    token: string,
  ): Promise<
    (ConsoleContext & { sessionId: string; expiresAt: number | undefined }) | null | undefined
  > {
    const claims = await keys.verify(token, CONSOLE_AUDIENCE);
    if (!claims) return undefined;
    const { sid, org, env, sub } = claims;
    if (![sid, org, env, sub].every((v) => typeof v === 'string')) return undefined;
    const context = await accounts.context({
      sessionId: sid as string,
      userId: sub!,
      organizationId: org as string,
      environmentId: env as string,
    });
    if (!context) return null;
    const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
    return { ...context, sessionId: sid as string, expiresAt };
  }

  return {
    /** A new session for `user` in the organization's first environment (a sign-in's answer). */
    openSession,

    /**
     * E-mail and password. The attempt is counted before the password is checked; a wrong
     * e-mail and a wrong password answer alike, in the same time.
     */
    async signIn(input: { email: string; password: string; address: string }): Promise<SignedIn> {
      const attempt = await deps.throttle.reserve(input.email, input.address, now());
      if (attempt.blocked) {
        const minutes = Math.ceil(attempt.waitSeconds / 60);
        throw tooManyRequests(
          `Too many failed sign-ins: try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
          attempt.waitSeconds,
        );
      }
      const user = await accounts.userByEmail(input.email.trim());
      const matches = await verifyPassword(user?.passwordHash, input.password);
      if (!user || !matches || !canSignIn(user)) {
        throw unauthorized('Incorrect email or password');
      }
      await attempt.succeeded();
      const [first] = await accounts.organizationsOf(user.id);
      if (!first) throw forbidden('You are not a member of any organization');
      const signedIn = await openSession(user, first.organization.id);
      await audit.record({
        organizationId: first.organization.id,
        actor: { type: 'user', userId: user.id },
        action: 'user.signed_in',
        details: { method: 'password' },
      });
      return signedIn;
    },

    /**
     * A GitHub or Google sign-in: the person the account is linked to; else the person with
     * the verified e-mail address, whose account is then linked; else, when sign-up is open, a
     * new person with their own organization, of which they are the admin. Whatever is refused
     * is refused before anything is written.
     */
    async signInWith(identity: VerifiedIdentity): Promise<SignedIn> {
      const { provider, providerUserId } = identity;
      let user = await accounts.userByIdentity(provider, providerUserId);
      let organizationId: string;
      let signedUp = false;
      if (!user) {
        user = await accounts.userByEmail(identity.email.trim());
        // An address nobody proved theirs could be a trap (someone made the account in the
        // owner's name beforehand, with a password they know): it is not linked.
        if (user && !user.emailVerifiedAt) throw new SignInRefused('account_unverified');
      }
      if (user) {
        if (user.status !== 'active') throw new SignInRefused('account_inactive');
        const [first] = await accounts.organizationsOf(user.id);
        if (!first) throw new SignInRefused('no_organization');
        if (!(await accounts.linkIdentity(user.id, provider, providerUserId)))
          throw new SignInRefused('identity_taken');
        organizationId = first.organization.id;
      } else {
        if (deps.signUp !== 'open' || !deps.newOrganization)
          throw new SignInRefused('signup_closed');
        user = await accounts.createUserWithIdentity(
          {
            email: identity.email.trim(),
            firstName: identity.firstName ?? null,
            lastName: identity.lastName ?? null,
            status: 'active',
            emailVerifiedAt: now(),
          },
          { provider, providerUserId },
        );
        organizationId = await deps.newOrganization(
          `${identity.displayName.slice(0, 80)}'s organization`,
        );
        await accounts.addMember(organizationId, user.id, 'admin');
        await accounts.claimOwnerlessKeys(organizationId, user.id);
        signedUp = true;
      }
      const signedIn = await openSession(user, organizationId);
      await audit.record({
        organizationId,
        actor: { type: 'user', userId: user.id },
        action: 'user.signed_in',
        details: { method: provider, ...(signedUp && { signedUp }) },
      });
      return signedIn;
    },

    /**
     * A new access token for a valid refresh token, which is replaced (a refresh token works
     * once: one replayed after its use opens nothing).
     */
    async refresh(refreshToken: string): Promise<SignedIn> {
      const refreshToken2 = newSecret();
      const session = await accounts.rotateSession(
        sha256(refreshToken),
        sha256(refreshToken2),
        sessionEnd(),
      );
      if (!session) throw unauthorized('Your session has ended: sign in again');
      const user = await accounts.userById(session.userId);
      const role = user && (await accounts.roleOf(session.organizationId, user.id));
      if (!user || !canSignIn(user) || !role) {
        await accounts.revokeSession(session.id);
        throw unauthorized('Your session has ended: sign in again');
      }
      return {
        token: await accessToken(
          session.id,
          user.id,
          session.organizationId,
          session.environmentId,
        ),
        refreshToken: refreshToken2,
        expiresIn: ACCESS_TOKEN_SECONDS,
        user,
        organizationId: session.organizationId,
        environmentId: session.environmentId,
      };
    },

    /** Ends the session the refresh token belongs to (its access tokens stop at once). */
    async signOut(refreshToken: string): Promise<void> {
      const sessionId = await accounts.revokeByRefresh(sha256(refreshToken));
      if (sessionId) deps.consoleSockets?.disconnect({ sessionId });
    },

    contextOf,

    /** What a console socket's token opens: its environment, session, person and expiry. */
    async socketSession(token: string) {
      const context = await contextOf(token);
      return (
        context && {
          environmentId: context.environment.id,
          sessionId: context.sessionId,
          userId: context.user.id,
          expiresAt: context.expiresAt,
        }
      );
    },

    /** A token for another environment of the organization (the console's switch). */
    async switchEnvironment(session: SessionRef, environmentId: string): Promise<string> {
      const environment = await accounts.environmentOf(session.organizationId, environmentId);
      if (!environment) throw notFound(`Environment with id ${environmentId} not found`);
      await accounts.moveSession(session.sessionId, session.organizationId, environment.id);
      return accessToken(session.sessionId, session.userId, session.organizationId, environment.id);
    },

    /** A token for another organization the person belongs to, in its first environment. */
    async switchOrganization(session: SessionRef, organizationId: string): Promise<string> {
      const role = await accounts.roleOf(organizationId, session.userId);
      if (!role) throw notFound(`Organization with id ${organizationId} not found`);
      const environment = await accounts.firstEnvironment(organizationId);
      if (!environment) throw forbidden('That organization has no environment');
      await accounts.moveSession(session.sessionId, organizationId, environment.id);
      return accessToken(session.sessionId, session.userId, organizationId, environment.id);
    },

    organizationsOf: (userId: string) => accounts.organizationsOf(userId),
    membersOf: (organizationId: string) => accounts.membersOf(organizationId),
    /** The organization's keys that belong to nobody become `userId`'s. */
    claimOwnerlessKeys: (organizationId: string, userId: string) =>
      accounts.claimOwnerlessKeys(organizationId, userId),
    addMember: (organizationId: string, userId: string, role: MemberRole) =>
      accounts.addMember(organizationId, userId, role),
    /** A member's role; the organization's last admin keeps theirs ('last-admin'). */
    setRole: (organizationId: string, userId: string, role: MemberRole) =>
      accounts.setRole(organizationId, userId, role),
    /**
     * Removes a member; the organization's last admin stays ('last-admin'). Their live sockets
     * close: those of their other organizations connect again, this one's cannot.
     */
    async removeMember(organizationId: string, userId: string) {
      const outcome = await accounts.removeMember(organizationId, userId);
      if (outcome === 'removed') deps.consoleSockets?.disconnect({ userId });
      return outcome;
    },

    /** The person's account (a session's user always has one while it is valid). */
    async userOf(userId: string): Promise<User> {
      const user = await accounts.userById(userId);
      if (!user) throw unauthorized('Your session has ended: sign in again');
      return user;
    },

    /**
     * An admin for each organization that has none who can sign in (a first start, or the
     * first start after an upgrade from before people): `admin` names the address and, when
     * set, the password; otherwise a password is generated and answered once.
     */
    async ensureAdmins(admin: {
      email: string;
      password?: string | undefined;
    }): Promise<(AdminCredentials & { organizationId: string })[]> {
      const made: (AdminCredentials & { organizationId: string })[] = [];
      for (const organization of await accounts.organizationsWithoutAdmin()) {
        let user = await accounts.userByEmail(admin.email);
        let password: string | undefined;
        if (!user) {
          password = admin.password ?? newSecret().slice(0, 24);
          user = await accounts.createUser({
            email: admin.email,
            firstName: 'Admin',
            passwordHash: await hashPassword(password),
            status: 'active',
            emailVerifiedAt: now(),
          });
        }
        await accounts.addMember(organization.id, user.id, 'admin');
        // The keys the start made are the admin's, as Novu's keys are their maker's.
        await accounts.claimOwnerlessKeys(organization.id, user.id);
        made.push({
          organizationId: organization.id,
          email: user.email,
          ...(password !== undefined && admin.password === undefined && { password }),
        });
      }
      return made;
    },

    roleOf: (organizationId: string, userId: string): Promise<MemberRole | undefined> =>
      accounts.roleOf(organizationId, userId),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
