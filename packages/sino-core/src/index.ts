import { fileURLToPath } from 'node:url';
import type { Migrations } from '@locadora/db';

export { sinoCore } from './plugin.js';
export type { SinoOptions } from './options.js';
export type { DevelopmentCredentials } from './modules/identity/service.js';
/** For the server's configuration: allow-list entries that are not an address or a CIDR. */
export { invalidNetworks } from '@sino/providers';

/** Sino's migrations, applied at start on PGlite and PostgreSQL alike. */
export const sinoMigrations: Migrations = {
  folder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  schema: 'sino',
};
