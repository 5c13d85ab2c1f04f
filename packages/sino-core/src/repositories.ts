import type { Database } from '@locadora/db';
import { createActivityRepository } from './modules/activity/repository.js';
import { createIdentityRepository } from './modules/identity/repository.js';
import { createIntegrationRepository } from './modules/integrations/repository.js';
import { createMessageRepository } from './modules/messages/repository.js';
import { createRetentionRepository } from './modules/messages/retention-repository.js';
import { createPreferenceRepository } from './modules/preferences/repository.js';
import { createErasureRepository } from './modules/subscribers/erasure-repository.js';
import { createSubscriberRepository } from './modules/subscribers/repository.js';
import { createTombstoneKeys } from './modules/subscribers/tombstones.js';
import { createTenantRepository } from './modules/tenants/repository.js';
import { createTopicRepository } from './modules/topics/repository.js';
import { createFeedRepository, createWorkflowRepository } from './modules/workflows/repository.js';
import { createDeliveryRepository } from './delivery/repository.js';
import {
  createEngineRepository,
  inEngineTransaction,
  type EngineRepository,
} from './engine/repository.js';

/**
 * Sino's repositories, each built once on one database: the services, the engine and the
 * socket gateway receive the ones they use (docs/decisions/032). Erased subscribers'
 * tombstones are keyed with a secret derived from `encryptionKey` (SINO_ENCRYPTION_KEY).
 */
export function createRepositories(db: Database, secrets: { encryptionKey: string }) {
  const tombstones = createTombstoneKeys(secrets.encryptionKey);
  return {
    activity: createActivityRepository(db),
    deliveries: createDeliveryRepository(db),
    engine: createEngineRepository(db),
    erasure: createErasureRepository(db, tombstones),
    feeds: createFeedRepository(db),
    identity: createIdentityRepository(db),
    integrations: createIntegrationRepository(db),
    messages: createMessageRepository(db),
    preferences: createPreferenceRepository(db),
    retention: createRetentionRepository(db),
    subscribers: createSubscriberRepository(db, tombstones),
    tenants: createTenantRepository(db),
    topics: createTopicRepository(db),
    workflows: createWorkflowRepository(db),
    /** Runs `work` in one transaction on an engine repository bound to it. */
    inEngineTransaction: <T>(work: (repo: EngineRepository) => Promise<T>): Promise<T> =>
      inEngineTransaction(db, work),
  };
}

export type SinoRepositories = ReturnType<typeof createRepositories>;
