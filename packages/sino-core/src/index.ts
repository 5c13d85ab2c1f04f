import { fileURLToPath } from 'node:url';
import type { Migrations } from '@locadora/db';

export { sinoApi, sinoCore } from './plugin.js';
export type { SinoOptions } from './options.js';
export type { DevelopmentCredentials } from './modules/identity/service.js';
export type { AdminCredentials } from './modules/accounts/service.js';
export type { ConsoleSignInOptions } from './modules/accounts/oauth.js';
/** A rotation of the encryption key: the re-seal, its report, the keys' public ids (decision 038). */
export { describeUnopened, resealSecrets, type ResealReport } from './sealed/reseal.js';
export { createSecretBox, keyIdOf, type EncryptionKeys } from './secret-box.js';
/** Prometheus families of Sino, for the server's registry (observability/prometheus.ts). */
export { createSinoMetrics } from './observability/prometheus.js';
export type { SinoMetrics } from './observability/metrics.js';
/** For the server's configuration: allow-list entries that are not an address or a CIDR. */
export { invalidNetworks } from '@sino/providers';

/** Sino's migrations, applied at start on PGlite and PostgreSQL alike. */
export const sinoMigrations: Migrations = {
  folder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  schema: 'sino',
};
