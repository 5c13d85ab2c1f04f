import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's own ESLint configuration, run through ESLint's Node API on a Fastify import
// placed in each file the rule must cover (docs/decisions/032).
const raiz = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: raiz });
const IMPORTA_FASTIFY =
  "import type { FastifyInstance } from 'fastify';\nexport type App = FastifyInstance;\n";

async function recusaFastify(caminho: string): Promise<boolean> {
  const [resultado] = await eslint.lintText(IMPORTA_FASTIFY, { filePath: caminho });
  return resultado!.messages.some(
    (m) => m.ruleId === 'no-restricted-imports' && m.message.includes('free of Fastify'),
  );
}

/** The rental API's services and repositories, and the wiring that builds them. */
const cobertos = readdirSync(new URL('../src', import.meta.url), { recursive: true })
  .map((arquivo) => `src/${String(arquivo).replaceAll('\\', '/')}`)
  .filter((arquivo) => /(^|\/)(servicos?|repositorios?|repositorio-[a-z-]+)\.ts$/.test(arquivo));

describe('a regra "serviços sem Fastify" (eslint.config.js)', () => {
  it('acha os arquivos de que trata', () => {
    expect(cobertos).toEqual(
      expect.arrayContaining([
        'src/servicos.ts',
        'src/repositorios.ts',
        'src/modules/locacoes/servico.ts',
        'src/modules/locacoes/repositorio.ts',
        'src/notificacoes/repositorio-envios-de-teste.ts',
        'src/notificacoes/repositorio-outbox.ts',
      ]),
    );
    expect(cobertos.filter((a) => a.endsWith('/servico.ts'))).toHaveLength(9);
  });

  it('recusa Fastify em cada um deles e num serviço novo', async () => {
    const novos = ['src/modules/x/servico.ts', 'src/modules/x/repositorio.ts'];
    const recusados: string[] = [];
    for (const arquivo of [...cobertos, ...novos])
      if (await recusaFastify(`packages/locadora-api/${arquivo}`)) recusados.push(arquivo);
    expect(recusados).toEqual([...cobertos, ...novos]);
  });

  it('deixa as rotas e o plugin usá-lo', async () => {
    expect(await recusaFastify('packages/locadora-api/src/modules/x/rotas.ts')).toBe(false);
    expect(await recusaFastify('packages/locadora-api/src/plugin.ts')).toBe(false);
  });
});
