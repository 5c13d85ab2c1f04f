import type { Guards } from './http/guards.js';
import type { SinoServices } from './services.js';

/** What every route module receives. */
export interface SinoContext {
  services: SinoServices;
  guards: Guards;
}
