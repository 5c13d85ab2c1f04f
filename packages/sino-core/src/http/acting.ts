import type { FastifyRequest } from 'fastify';
import type { EnvironmentRef } from '../modules/workflows/service.js';

/**
 * The environment a server-API request acts in (its guard has run), with who acts for the
 * record of changes: the person signed in, or the owner of the API key (null: nobody known).
 */
export function actingEnvironment(request: FastifyRequest): EnvironmentRef {
  const actor = request.actor;
  return {
    ...request.environment!,
    actorId: actor?.type === 'user' ? actor.userId : (actor?.ownerId ?? null),
  };
}
