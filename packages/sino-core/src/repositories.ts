import { createChangeRepository } from './modules/changes/repository.js';
import type { Database } from '@locadora/db';
import { createAccountRepository } from './modules/accounts/repository.js';
import { createPeopleRepository } from './modules/accounts/people-repository.js';
import { createActivityRepository } from './modules/activity/repository.js';
import { createAuditRepository } from './modules/audit/repository.js';
import { createIdentityRepository } from './modules/identity/repository.js';
import { createIntegrationRepository } from './modules/integrations/repository.js';
import { createMessageRepository } from './modules/messages/repository.js';
import { createNotificationGroupRepository } from './modules/notification-groups/repository.js';
import { createLayoutRepository } from './modules/layouts/repository.js';
import { createOrganizationRepository } from './modules/organizations/repository.js';
import { createAnalyticsRepository } from './modules/analytics/repository.js';
import { createRetentionRepository } from './modules/messages/retention-repository.js';
import { createPreferenceRepository } from './modules/preferences/repository.js';
import { createErasureRepository } from './modules/subscribers/erasure-repository.js';
import { createSubscriberRepository } from './modules/subscribers/repository.js';
import { createTombstoneKeys, keptTombstoneKeys } from './modules/subscribers/tombstones.js';
import { createSealedRepository } from './sealed/repository.js';
import { createTenantRepository } from './modules/tenants/repository.js';
import { createTopicRepository } from './modules/topics/repository.js';
import { createFeedRepository, createWorkflowRepository } from './modules/workflows/repository.js';
import { createWorkflowOverrideRepository } from './modules/workflow-overrides/repository.js';
import { createDeliveryRepository } from './delivery/repository.js';
import {
  createEngineRepository,
  inEngineTransaction,
  type EngineRepository,
} from './engine/repository.js';

/** The encryption keys, as Sino's options give them (SINO_ENCRYPTION_KEY and the previous ones). */
export interface RepositorySecrets {
  encryptionKey: string;
  previousEncryptionKeys?: readonly string[] | undefined;
}

/**
 * Sino's repositories, each built once on one database: the services, the engine and the
 * socket gateway receive the ones they use (docs/decisions/032). Erased subscribers'
 * tombstones are keyed with a secret kept in the database, sealed under the encryption key.
 */
export function createRepositories(db: Database, secrets: RepositorySecrets) {
  const sealed = createSealedRepository(db);
  const tombstones = createTombstoneKeys(() =>
    keptTombstoneKeys(sealed, {
      current: secrets.encryptionKey,
      previous: secrets.previousEncryptionKeys,
    }),
  );
  return {
    sealed,
    /** The tombstones' keys, read on first use (`load()` reads them at start). */
    tombstones,
    accounts: createAccountRepository(db),
    analytics: createAnalyticsRepository(db),
    people: createPeopleRepository(db),
    activity: createActivityRepository(db),
    audit: createAuditRepository(db),
    changes: createChangeRepository(db),
    deliveries: createDeliveryRepository(db),
    engine: createEngineRepository(db),
    erasure: createErasureRepository(db, tombstones),
    feeds: createFeedRepository(db),
    identity: createIdentityRepository(db),
    integrations: createIntegrationRepository(db),
    layouts: createLayoutRepository(db),
    messages: createMessageRepository(db),
    notificationGroups: createNotificationGroupRepository(db),
    organizations: createOrganizationRepository(db),
    preferences: createPreferenceRepository(db),
    retention: createRetentionRepository(db),
    subscribers: createSubscriberRepository(db, tombstones),
    tenants: createTenantRepository(db),
    topics: createTopicRepository(db),
    workflows: createWorkflowRepository(db),
    workflowOverrides: createWorkflowOverrideRepository(db),
    /** Runs `work` in one transaction on an engine repository bound to it. */
    inEngineTransaction: <T>(work: (repo: EngineRepository) => Promise<T>): Promise<T> =>
      inEngineTransaction(db, work),
  };
}

export type SinoRepositories = ReturnType<typeof createRepositories>;
