import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Environment } from '../modules/identity/repository.js';
import type { IdentityService } from '../modules/identity/service.js';
import type { Subscriber, SubscriberRepository } from '../modules/subscribers/repository.js';
import type { WidgetSession, WidgetTokens } from '../modules/widget/tokens.js';
import { unauthorized } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The environment an API key opened (server API). */
    environment: Environment | null;
    /** The subscriber a widget token names, checked to still exist (widget API). */
    widget: { session: WidgetSession; subscriber: Subscriber } | null;
  }
}

export function createGuards(deps: {
  identity: IdentityService;
  subscribers: SubscriberRepository;
  tokens: WidgetTokens;
}) {
  return {
    /** `Authorization: ApiKey <key>`: the key's environment, or 401. */
    async apiKey(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const [scheme, key] = (request.headers.authorization ?? '').split(' ');
      if (scheme !== 'ApiKey' || !key) throw unauthorized('API Key not found');
      const environment = await deps.identity.environmentForApiKey(key);
      if (!environment) throw unauthorized('API Key not found');
      request.environment = environment;
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
