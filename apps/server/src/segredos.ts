import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Development secrets kept in the data folder when the environment gives none. */
export interface Segredos {
  /** Locadora's access tokens. */
  jwtSecret: string;
  /** Sino's widget subscriber tokens. */
  sinoWidgetSecret: string;
  /** Sino's AES-256-GCM box for secrets at rest. */
  sinoEncryptionKey: string;
}

const NOMES: (keyof Segredos)[] = ['jwtSecret', 'sinoWidgetSecret', 'sinoEncryptionKey'];

/**
 * Development secrets: generated on first start into `<dataDir>/secrets.json` (mode 600) and
 * reused afterwards, so tokens and sealed keys survive a restart and nothing secret is ever
 * committed. A secret missing from an older file is added; the others are kept.
 */
export function segredosDoDiretorio(dataDir: string): Segredos {
  const arquivo = join(dataDir, 'secrets.json');
  let lidos: Partial<Record<keyof Segredos, unknown>> = {};
  try {
    lidos = JSON.parse(readFileSync(arquivo, 'utf8')) as typeof lidos;
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code !== 'ENOENT') throw erro;
  }
  const valido = (v: unknown): v is string => typeof v === 'string' && v.length >= 32;
  if (NOMES.every((n) => valido(lidos[n]))) return lidos as Segredos;
  const segredos = Object.fromEntries(
    NOMES.map((n) => [n, valido(lidos[n]) ? lidos[n] : randomBytes(48).toString('base64url')]),
  ) as unknown as Segredos;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(arquivo, `${JSON.stringify(segredos, null, 2)}\n`, { mode: 0o600 });
  return segredos;
}
