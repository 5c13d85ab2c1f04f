import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EQUIPE, ehGrupo, itensDoMenu, menuDe, paths, podeAbrir } from '../src/config/paths.js';

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

  it('groups the staff menu, every staff entry in it exactly once', () => {
    for (const papel of EQUIPE) {
      const menu = menuDe(papel);
      const rotas = menu.flatMap((e) => (ehGrupo(e) ? e.rotas : [e]));
      expect(rotas.map((r) => r.caminho).sort()).toEqual(
        itensDoMenu(papel)
          .map((r) => r.caminho)
          .sort(),
      );
      expect(new Set(rotas).size).toBe(rotas.length);
    }
    expect(menuDe('funcionario').map((e) => (ehGrupo(e) ? `${e.rotulo} ▾` : e.menu))).toEqual([
      'Home',
      'Operação ▾',
      'Frota ▾',
      'Clientes ▾',
      'Relatórios ▾',
      'Notificações',
      'Minha conta',
    ]);
  });

  it("keeps the customers' short menu flat", () => {
    expect(menuDe('cliente')).toEqual(itensDoMenu('cliente'));
    expect(menuDe(undefined)).toEqual([]);
  });
});
