import { fileURLToPath } from 'node:url';
import type { Migrations } from '@locadora/db';

export { sinoCore } from './plugin.js';
export type { SinoOptions } from './context.js';
export type { DevelopmentCredentials } from './modules/identity/service.js';

/** Sino's migrations, applied at start on PGlite and PostgreSQL alike. */
export const sinoMigrations: Migrations = {
  folder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  schema: 'sino',
};
