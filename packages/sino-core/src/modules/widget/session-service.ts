import type { IdentityService } from '../identity/service.js';
import type { SubscriberProfile, SubscriberRepository } from '../subscribers/repository.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { WidgetTokens } from './tokens.js';

export interface InitializeSession extends SubscriberProfile {
  applicationIdentifier: string;
  subscriberId: string;
  hmacHash?: string | null | undefined;
}

export const SUBSCRIBER_ERASED = 'The subscriber was erased: no session can be started for it';

/** POST /v1/widgets/session/initialize: who the widget is for, checked, then a token. */
export function createSessionService(deps: {
  identity: IdentityService;
  subscribers: SubscriberRepository;
  tokens: WidgetTokens;
}) {
  return {
    async initialize(input: InitializeSession) {
      const environment = await deps.identity.environmentForApplication(
        input.applicationIdentifier,
      );
      if (!environment) throw badRequest('Please provide a valid app identifier');
      const integration = await deps.identity.inAppIntegration(environment.id);
      if (!integration) throw notFound('In-App integration could not be found for the application');
      if (integration.hmac) {
        const valid =
          typeof input.hmacHash === 'string' &&
          (await deps.identity.hmacMatches(environment.id, input.subscriberId, input.hmacHash));
        if (!valid) throw badRequest('Please provide a valid HMAC hash');
      }
      const subscriber = await deps.subscribers.upsert(
        {
          environmentId: environment.id,
          organizationId: environment.organizationId,
          subscriberId: input.subscriberId,
        },
        {
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
          phone: input.phone,
        },
      );
      // A session would create it again: an erased subscriber stays erased (decision 026).
      if (!subscriber) throw forbidden(SUBSCRIBER_ERASED);
      const token = await deps.tokens.issue({
        _id: subscriber.id,
        firstName: subscriber.firstName,
        lastName: subscriber.lastName,
        email: subscriber.email,
        organizationId: subscriber.organizationId,
        environmentId: subscriber.environmentId,
        subscriberId: subscriber.subscriberId,
      });
      return {
        token,
        profile: {
          _id: subscriber.id,
          firstName: subscriber.firstName,
          lastName: subscriber.lastName,
          phone: subscriber.phone,
        },
      };
    },
  };
}
