import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Segredos {
  jwtSecret: string;
}

/**
 * Development secrets: generated on first start into `<dataDir>/secrets.json` (mode 600) and
 * reused afterwards, so tokens survive a restart and nothing secret is ever committed.
 */
export function segredosDoDiretorio(dataDir: string): Segredos {
  const arquivo = join(dataDir, 'secrets.json');
  try {
    const lidos = JSON.parse(readFileSync(arquivo, 'utf8')) as Partial<Segredos>;
    if (typeof lidos.jwtSecret === 'string' && lidos.jwtSecret.length >= 32)
      return { jwtSecret: lidos.jwtSecret };
  } catch (erro) {
    if ((erro as NodeJS.ErrnoException).code !== 'ENOENT') throw erro;
  }
  const novos: Segredos = { jwtSecret: randomBytes(48).toString('base64url') };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(arquivo, `${JSON.stringify(novos, null, 2)}\n`, { mode: 0o600 });
  return novos;
}
