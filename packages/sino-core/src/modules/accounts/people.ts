import { hashPassword, type LoginThrottle } from '@locadora/login';
import type { MemberRole } from '@sino/shared';
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  SinoError,
  tooManyRequests,
} from '../../errors.js';
import type { Log } from '../../log.js';
import type { AuditService } from '../audit/service.js';
import type { IdentityService } from '../identity/service.js';
import type { AccountRepository, User } from './repository.js';
import type { AccountToken, PeopleRepository } from './people-repository.js';
import {
  consoleLink,
  invitationMessage,
  passwordResetMessage,
  verificationMessage,
  type PlatformMail,
} from './platform-mail.js';
import { newSecret, sha256, type AccountService, type SignedIn } from './service.js';
import type { ConsoleEvents } from '../../realtime/port.js';

const HOUR = 60 * 60 * 1000;
/** How long each link works. */
export const TOKEN_VALIDITY_MS = {
  invitation: 7 * 24 * HOUR,
  password_reset: HOUR,
  email_verification: 2 * 24 * HOUR,
} as const;
/** A person gets another verification or reset mail at most this often. */
export const RESEND_INTERVAL_SECONDS = 60;
/** A console password's length (as SINO_ADMIN_PASSWORD's). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1000;

/** SinoOptions' `accounts`: sign-up open to anyone, or by invitation only (the default). */
export type SignUpMode = 'open' | 'invitation';

/** An invitation as the accept page reads it. */
export interface InvitationInfo {
  organization: { _id: string; name: string };
  inviter: { firstName: string | null };
  email: string;
}

/**
 * Console people beyond signing in: invitations, sign-up (closed unless the operator opens
 * it), e-mail verification, password reset and erasure, through the installation's own mail.
 * Links carry a single-use token of 32 random bytes; only its SHA-256 is kept.
 */
export function createPeopleService(deps: {
  people: PeopleRepository;
  accounts: AccountRepository;
  accountService: Pick<AccountService, 'openSession'>;
  identity: Pick<IdentityService, 'createOrganization' | 'apiKeysChanged'>;
  audit: AuditService;
  mail: PlatformMail;
  /** `SINO_PUBLIC_URL`: the console's links start with it. */
  publicUrl: string | undefined;
  signUp: SignUpMode;
  log: Log;
  /** Closes the live sockets of a person whose sessions ended. */
  consoleSockets?: Pick<ConsoleEvents, 'disconnect'> | undefined;
  /** Sign-ups and reset requests per e-mail and client address (each may send a mail). */
  mailRequests?: LoginThrottle | undefined;
  now?: () => Date;
}) {
  const { people, accounts, audit, mail } = deps;
  const now = deps.now ?? (() => new Date());
  const expiry = (purpose: keyof typeof TOKEN_VALIDITY_MS) =>
    new Date(now().getTime() + TOKEN_VALIDITY_MS[purpose]);
  const link = (page: string, token: string) =>
    consoleLink(deps.publicUrl ?? 'http://localhost:3000', page, token);
  const mailUnavailable = () =>
    new SinoError(503, 'This installation has no mail settings (SINO_MAIL_URL): ask its operator');

  /** Counts a request that may mail `email`; 429 past the limits, whoever asks. */
  async function throttleMail(email: string, address: string, what: string) {
    const attempt = await deps.mailRequests?.reserve(email, address, now());
    if (!attempt?.blocked) return;
    const minutes = Math.ceil(attempt.waitSeconds / 60);
    throw tooManyRequests(
      `Too many ${what} for this address or from this network: try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
      attempt.waitSeconds,
    );
  }

  /** Sends without waiting: an answer takes as long whether a mail went or not. */
  function sendLater(message: Parameters<PlatformMail['send']>[0], what: string) {
    mail
      .send(message)
      .catch((error: unknown) =>
        deps.log.warn(
          { err: { message: (error as Error).message } },
          `The ${what} mail was not sent`,
        ),
      );
  }

  /** 404 for a token never made, 400 for one used, revoked or expired. */
  async function refuseToken(purpose: AccountToken['purpose'], hash: string, what: string) {
    const known = await people.tokenByHash(purpose, hash);
    if (!known) return notFound(`${what} not found`);
    return badRequest(`This ${what.toLowerCase()} link has expired or was already used`);
  }

  async function recordInEach(
    organizationIds: string[],
    entry: Omit<Parameters<AuditService['record']>[0], 'organizationId'>,
  ) {
    for (const organizationId of organizationIds) await audit.record({ ...entry, organizationId });
  }
  const organizationsOf = async (userId: string) =>
    (await accounts.organizationsOf(userId)).map((o) => o.organization.id);

  async function sendVerification(user: User): Promise<void> {
    if (!mail.configured) return;
    const token = newSecret();
    await people.addToken({
      purpose: 'email_verification',
      tokenHash: sha256(token),
      email: user.email,
      userId: user.id,
      expiresAt: expiry('email_verification'),
    });
    sendLater(verificationMessage(user.email, link('verify-email', token)), 'verification');
  }

  return {
    signUpOpen: () => deps.signUp === 'open',

    /**
     * An admin invites an address with a role. The link is e-mailed; without platform mail it
     * is answered once to the admin (`invitationLink`) and kept nowhere else.
     */
    async invite(
      inviter: { userId: string; organizationId: string },
      email: string,
      role: MemberRole,
    ): Promise<{ invitation: AccountToken; invitationLink?: string }> {
      const user = await accounts.userById(inviter.userId);
      if (!user?.emailVerifiedAt)
        throw forbidden('Confirm your e-mail address before inviting anyone');
      const existing = await accounts.userByEmail(email);
      if (existing && (await accounts.roleOf(inviter.organizationId, existing.id)))
        throw conflict('This person is already a member of the organization');
      const token = newSecret();
      const invitation = await people.addToken({
        purpose: 'invitation',
        tokenHash: sha256(token),
        email,
        organizationId: inviter.organizationId,
        role,
        invitedBy: inviter.userId,
        expiresAt: expiry('invitation'),
      });
      await audit.record({
        organizationId: inviter.organizationId,
        actor: { type: 'user', userId: inviter.userId },
        action: 'member.invited',
        subject: { type: 'invitation', id: invitation.id },
        details: { role },
      });
      const url = link('accept-invitation', token);
      if (!mail.configured) return { invitation, invitationLink: url };
      const organization = (await people.organizationName(inviter.organizationId)) ?? 'Sino';
      try {
        await mail.send(
          invitationMessage(invitation.email, { organization, inviter: user.firstName, link: url }),
        );
      } catch (error) {
        await people.revokeInvitation(inviter.organizationId, invitation.id);
        deps.log.warn(
          { err: { message: (error as Error).message } },
          'An invitation mail was not sent',
        );
        throw new SinoError(502, 'The invitation could not be e-mailed: try again later');
      }
      return { invitation };
    },

    pendingInvitations: (organizationId: string) => people.pendingInvitations(organizationId),

    async revokeInvitation(
      actor: Parameters<AuditService['record']>[0]['actor'],
      organizationId: string,
      id: string,
    ): Promise<AccountToken> {
      const revoked = await people.revokeInvitation(organizationId, id);
      if (!revoked) throw notFound(`Invitation with id ${id} not found`);
      await audit.record({
        organizationId,
        actor,
        action: 'invitation.revoked',
        subject: { type: 'invitation', id },
      });
      return revoked;
    },

    /** What the accept page shows: the organization, who invited, the address. */
    async invitation(token: string): Promise<InvitationInfo> {
      const hash = sha256(token);
      const invitation = await people.peekToken('invitation', hash);
      if (!invitation) throw await refuseToken('invitation', hash, 'Invitation');
      const name = await people.organizationName(invitation.organizationId!);
      const inviter = invitation.invitedBy
        ? await accounts.userById(invitation.invitedBy)
        : undefined;
      return {
        organization: { _id: invitation.organizationId!, name: name ?? '' },
        inviter: { firstName: inviter?.firstName ?? null },
        email: invitation.email,
      };
    },

    /**
     * Accepts an invitation: a new person (their password and name; the link proved their
     * address), or the signed-in person the invitation was sent to. Either way the membership
     * is added and a session opens in the organization.
     */
    async acceptInvitation(
      token: string,
      who:
        { userId: string } | { password: string; firstName: string; lastName?: string | undefined },
    ): Promise<SignedIn> {
      const hash = sha256(token);
      let user: User;
      let invitation: AccountToken | undefined;
      if ('userId' in who) {
        const me = await accounts.userById(who.userId);
        if (!me) throw notFound('Invitation not found');
        invitation = await people.consumeToken('invitation', hash, me.email);
        if (!invitation) {
          const other = await people.peekToken('invitation', hash);
          if (other) throw forbidden('This invitation was sent to another address');
          throw await refuseToken('invitation', hash, 'Invitation');
        }
        user = me;
        if (!me.emailVerifiedAt) await people.markVerified(me.id);
      } else {
        const peeked = await people.peekToken('invitation', hash);
        if (!peeked) throw await refuseToken('invitation', hash, 'Invitation');
        if (await accounts.userByEmail(peeked.email))
          throw conflict(
            'An account with this address exists: sign in, then accept the invitation',
          );
        // Hashed before the token is used: a slow hash never holds a used token.
        const passwordHash = await hashPassword(who.password);
        invitation = await people.consumeToken('invitation', hash);
        if (!invitation) throw await refuseToken('invitation', hash, 'Invitation');
        try {
          user = await accounts.createUser({
            email: invitation.email,
            firstName: who.firstName,
            lastName: who.lastName ?? null,
            passwordHash,
            status: 'active',
            emailVerifiedAt: now(),
          });
        } catch (error) {
          // The address got an account meanwhile: the invitation stays usable by signing in.
          await people.releaseToken(invitation.id);
          if (await accounts.userByEmail(invitation.email))
            throw conflict(
              'An account with this address exists: sign in, then accept the invitation',
            );
          throw error;
        }
      }
      const organizationId = invitation.organizationId!;
      await accounts.addMember(organizationId, user.id, invitation.role ?? 'member');
      await audit.record({
        organizationId,
        actor: { type: 'user', userId: user.id },
        action: 'invitation.accepted',
        subject: { type: 'invitation', id: invitation.id },
        details: { role: invitation.role ?? 'member' },
      });
      return deps.accountService.openSession(
        (await accounts.userById(user.id)) ?? user,
        organizationId,
      );
    },

    /**
     * Sign-up (`SINO_SIGNUP=open`): a person with an organization of their own (Development and
     * Production) as its admin, `new` until they confirm their address.
     */
    async register(input: {
      email: string;
      password: string;
      firstName: string;
      lastName?: string | undefined;
      organizationName?: string | undefined;
      /** The client's address, for the throttle. */
      address: string;
    }): Promise<SignedIn> {
      if (deps.signUp !== 'open')
        throw forbidden('Sign-up is by invitation only on this installation');
      // Before the password is hashed: a flood of sign-ups costs no argon2 time either.
      await throttleMail(input.email, input.address, 'sign-ups');
      if (await accounts.userByEmail(input.email))
        throw conflict('An account with this address exists: sign in, or reset its password');
      const passwordHash = await hashPassword(input.password);
      let user: User;
      try {
        user = await accounts.createUser({
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName ?? null,
          passwordHash,
          status: 'new',
        });
      } catch (error) {
        if (await accounts.userByEmail(input.email))
          throw conflict('An account with this address exists: sign in, or reset its password');
        throw error;
      }
      const made = await deps.identity.createOrganization(
        input.organizationName ?? `${input.firstName}'s organization`,
        { requireSubscriberHash: true },
      );
      await accounts.addMember(made.organizationId, user.id, 'admin');
      await accounts.claimOwnerlessKeys(made.organizationId, user.id);
      await audit.record({
        organizationId: made.organizationId,
        actor: { type: 'user', userId: user.id },
        action: 'user.signed_up',
      });
      await sendVerification(user);
      return deps.accountService.openSession(user, made.organizationId);
    },

    /** Confirms the address the link was sent to: verified, and the account active. */
    async verifyEmail(token: string): Promise<void> {
      const hash = sha256(token);
      const used = await people.consumeToken('email_verification', hash);
      if (!used?.userId) throw await refuseToken('email_verification', hash, 'Verification');
      const user = await accounts.userById(used.userId);
      // An address changed since the link was sent is not the one it proves.
      if (!user || user.email !== used.email)
        throw badRequest('This verification link has expired or was already used');
      await people.markVerified(user.id);
      await recordInEach(await organizationsOf(user.id), {
        actor: { type: 'user', userId: user.id },
        action: 'user.email_verified',
      });
    },

    /** Another verification mail for the signed-in person, at most one a minute. */
    async resendVerification(userId: string): Promise<void> {
      const user = await accounts.userById(userId);
      if (!user) throw notFound('Account not found');
      if (user.emailVerifiedAt) throw badRequest('Your e-mail address is already confirmed');
      if (!mail.configured) throw mailUnavailable();
      const token = newSecret();
      const added = await people.addTokenUnlessRecent(
        'email_verification',
        {
          tokenHash: sha256(token),
          email: user.email,
          userId: user.id,
          expiresAt: expiry('email_verification'),
        },
        RESEND_INTERVAL_SECONDS,
      );
      if (!added)
        throw tooManyRequests(
          'A verification e-mail was sent less than a minute ago: wait before asking again',
          RESEND_INTERVAL_SECONDS,
        );
      sendLater(verificationMessage(user.email, link('verify-email', token)), 'verification');
    },

    /**
     * A reset link, mailed only to an existing account; the caller's answer is the same either
     * way (no account discovery), and the mail goes after it.
     */
    async requestPasswordReset(email: string, address: string): Promise<void> {
      await throttleMail(email, address, 'password reset requests');
      const user = await accounts.userByEmail(email);
      if (!user || !mail.configured) return;
      const token = newSecret();
      // At most one mail a minute to an address, however often it is asked for.
      const added = await people.addTokenUnlessRecent(
        'password_reset',
        {
          tokenHash: sha256(token),
          email: user.email,
          userId: user.id,
          expiresAt: expiry('password_reset'),
        },
        RESEND_INTERVAL_SECONDS,
      );
      if (!added) return;
      sendLater(passwordResetMessage(user.email, link('reset-password', token)), 'password reset');
    },

    /** A new password for the link's account; every session of it ends. */
    async resetPassword(token: string, password: string): Promise<void> {
      const hash = sha256(token);
      if (!(await people.peekToken('password_reset', hash)))
        throw await refuseToken('password_reset', hash, 'Password reset');
      const passwordHash = await hashPassword(password);
      const used = await people.consumeToken('password_reset', hash);
      if (!used?.userId) throw await refuseToken('password_reset', hash, 'Password reset');
      const user = await accounts.userById(used.userId);
      if (!user || user.email !== used.email)
        throw badRequest('This password reset link has expired or was already used');
      await people.setPassword(user.id, passwordHash);
      await people.revokeSessionsOf(user.id);
      deps.consoleSockets?.disconnect({ userId: user.id });
      // The link was mailed to the address: it is confirmed too.
      if (!user.emailVerifiedAt) await people.markVerified(user.id);
      await recordInEach(await organizationsOf(user.id), {
        actor: { type: 'user', userId: user.id },
        action: 'auth.password_reset',
      });
    },

    /**
     * Erases the signed-in person: refused (409) while they are the last admin of an
     * organization with other members. Their API keys go to another admin of the key's
     * organization, or are revoked where none is left.
     */
    async erase(userId: string): Promise<void> {
      const outcome = await people.erase(userId);
      if (outcome === 'missing') throw notFound('Account not found');
      if (outcome === 'last-admin')
        throw conflict(
          'You are the last admin of an organization that has other members: make one of them an admin first',
        );
      deps.consoleSockets?.disconnect({ userId });
      // Their keys moved or were revoked: no node may keep them as they were.
      await deps.identity.apiKeysChanged();
      await recordInEach(outcome, {
        actor: { type: 'user', userId },
        action: 'user.erased',
        subject: { type: 'user', id: userId },
      });
    },
  };
}

export type PeopleService = ReturnType<typeof createPeopleService>;
