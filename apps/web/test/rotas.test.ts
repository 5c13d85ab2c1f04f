import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { itensDoMenu, paths, podeAbrir } from '../src/config/paths.js';

// Screens are found by file name (app/rotas.tsx): a route without its page would silently be a
// 404, and a page without a route would never be reachable.
const features = fileURLToPath(new URL('../src/features', import.meta.url));
const paginas = readdirSync(features).flatMap((feature) => {
  try {
    return readdirSync(`${features}/${feature}/paginas`)
      .filter((f) => f.endsWith('.tsx'))
      .map((f) => f.replace(/\.tsx$/, ''));
  } catch {
    return [];
  }
});

describe('route table', () => {
  it('has exactly one page per route and no page without a route', () => {
    expect([...paginas].sort()).toEqual(Object.keys(paths).sort());
  });

  it("keeps the spec's slugs", () => {
    expect(Object.values(paths).map((r) => r.caminho)).toEqual(
      expect.arrayContaining([
        '/',
        '/home2',
        '/cadastro',
        '/dashboard',
        '/locacao',
        '/vistoria',
        '/vistoria2',
        '/manutencao',
        '/estoque',
        '/categoria',
        '/infracoes',
        '/historico',
        '/avaliacoes',
        '/visualizarAvaliacao',
        '/localizacao',
        '/notificacoes',
      ]),
    );
  });

  it('shows customers no staff entry and staff every entry', () => {
    const cliente = itensDoMenu('cliente').map((r) => r.menu);
    expect(cliente).not.toContain('Dashboard');
    expect(cliente).not.toContain('Estoques');
    expect(cliente).toContain('Alugar');
    expect(cliente).toContain('Notificações');
    expect(itensDoMenu('funcionario').map((r) => r.menu)).toEqual(
      expect.arrayContaining([
        'Dashboard',
        'Cadastrar Vistorias',
        'Consultar Vistorias',
        'Estoques',
      ]),
    );
    expect(podeAbrir(paths.estoque, undefined)).toBe(false);
    expect(podeAbrir(paths.cadastro, undefined)).toBe(true);
  });
});
