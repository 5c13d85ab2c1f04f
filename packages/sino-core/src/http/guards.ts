import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Environment } from '../modules/identity/repository.js';
import type { IdentityService } from '../modules/identity/service.js';
import type { Subscriber, SubscriberRepository } from '../modules/subscribers/repository.js';
import type { WidgetSession, WidgetTokens } from '../modules/widget/tokens.js';
import type { RequestActor } from '../actor.js';
import type { AccountService } from '../modules/accounts/service.js';
import { forbidden, unauthorized } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The environment an API key or a console session opened (server API). */
    environment: Environment | null;
    /** Who acts (server API). */
    actor: RequestActor | null;
    /** The subscriber a widget token names, checked to still exist (widget API). */
    widget: { session: WidgetSession; subscriber: Subscriber } | null;
  }
}

export type { RequestActor } from '../actor.js';

export function createGuards(deps: {
  identity: IdentityService;
  accounts: Pick<AccountService, 'contextOf'>;
  subscribers: SubscriberRepository;
  tokens: WidgetTokens;
}) {
  return {
    /**
     * The server API: `Authorization: ApiKey <key>` opens the key's environment;
     * `Authorization: Bearer <console access token>` the environment a person works in, with
     * their role. 401 otherwise.
     */
    async apiKey(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const [scheme, credential] = (request.headers.authorization ?? '').split(' ');
      if (scheme === 'Bearer' && credential) {
        const context = await deps.accounts.contextOf(credential);
        // Not a console token at all: as Sino answered before there were any.
        if (context === undefined) throw unauthorized('API Key not found');
        if (context === null) throw unauthorized('Your session has ended: sign in again');
        request.environment = context.environment;
        request.actor = {
          type: 'user',
          userId: context.user.id,
          role: context.role,
          sessionId: context.sessionId,
        };
        return;
      }
      if (scheme !== 'ApiKey' || !credential) throw unauthorized('API Key not found');
      const found = await deps.identity.apiKeyFor(credential);
      if (!found) throw unauthorized('API Key not found');
      request.environment = found.environment;
      request.actor = {
        type: 'api_key',
        keyId: found.keyId,
        role: 'admin',
        ownerId: found.ownerId,
      };
    },

    /** After `apiKey`: only an admin (an API key is one) may go on; a member gets 403. */
    async admin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      if (request.actor?.role !== 'admin') {
        throw forbidden('Only an admin of the organization can do this');
      }
    },
    /**
     * After `apiKey`: Production changes only by promotion (Novu's RootEnvironmentGuard, with
     * its answer): writing its workflows directly is refused.
     */
    async development(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      if (request.environment?.parentId) {
        throw unauthorized('This action is only allowed in Development environment');
      }
    },
    /** `Authorization: Bearer <subscriber token>`: checked on every call, or 401. */
    async subscriber(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const [scheme, token] = (request.headers.authorization ?? '').split(' ');
      if (scheme !== 'Bearer') throw unauthorized();
      const session = await deps.tokens.verify(token);
      if (!session) throw unauthorized();
      const subscriber = await deps.subscribers.byId(session.environmentId, session._id);
      if (!subscriber) throw unauthorized();
      request.widget = { session, subscriber };
    },
  };
}

export type Guards = ReturnType<typeof createGuards>;
