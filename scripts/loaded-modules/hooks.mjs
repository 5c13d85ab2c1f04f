// The loader hook of record.mjs: runs in the loader's own thread, which shares the environment.
import { appendFileSync } from 'node:fs';

const file = process.env.LOADED_MODULES_FILE;

export async function load(url, context, nextLoad) {
  if (file) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
