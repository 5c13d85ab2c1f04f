import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's own ESLint configuration, run through ESLint's Node API on a Fastify import
// placed in each file the rule must cover (docs/decisions/032).
const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });
const FASTIFY_IMPORT =
  "import type { FastifyInstance } from 'fastify';\nexport type App = FastifyInstance;\n";

async function refusesFastify(filePath: string): Promise<boolean> {
  const [result] = await eslint.lintText(FASTIFY_IMPORT, { filePath });
  return result!.messages.some(
    (m) => m.ruleId === 'no-restricted-imports' && m.message.includes('free of Fastify'),
  );
}

/** Sino's services, repositories and their wiring, its engine and its socket gateway. */
const covered = readdirSync(new URL('../src', import.meta.url), { recursive: true })
  .map((file) => `src/${String(file).replaceAll('\\', '/')}`)
  .filter(
    (file) =>
      file.endsWith('.ts') &&
      (/(^|\/|-)(service|services|repository|repositories)\.ts$/.test(file) ||
        file.startsWith('src/engine/') ||
        file.startsWith('src/realtime/')),
  );

describe('the rule "no Fastify in services" (eslint.config.js)', () => {
  it('finds the files it is about', () => {
    expect(covered).toEqual(
      expect.arrayContaining([
        'src/services.ts',
        'src/repositories.ts',
        'src/modules/messages/service.ts',
        'src/modules/subscribers/erasure-repository.ts',
        'src/modules/widget/session-service.ts',
        'src/delivery/service.ts',
        'src/engine/engine.ts',
        'src/engine/wiring.ts',
        'src/realtime/gateway.ts',
      ]),
    );
  });

  it('refuses Fastify in every one of them, and in a new module service', async () => {
    const refused: string[] = [];
    for (const file of [...covered, 'src/modules/x/service.ts', 'src/modules/x/repository.ts'])
      if (await refusesFastify(`packages/sino-core/${file}`)) refused.push(file);
    expect(refused).toEqual([
      ...covered,
      'src/modules/x/service.ts',
      'src/modules/x/repository.ts',
    ]);
  });

  it('lets routes and the plugin use it', async () => {
    expect(await refusesFastify('packages/sino-core/src/modules/x/routes.ts')).toBe(false);
    expect(await refusesFastify('packages/sino-core/src/plugin.ts')).toBe(false);
  });
});
