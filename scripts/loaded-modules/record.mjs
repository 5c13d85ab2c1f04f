// Test only (scripts/smoke.mjs): given to a server through NODE_OPTIONS (`--import`), writes the
// URL of every module the process loads through the module loader into the file named by
// LOADED_MODULES_FILE, a line each, so the smoke test can tell what a start loaded.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
