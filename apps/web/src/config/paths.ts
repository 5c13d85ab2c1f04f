// The one route table: every Portuguese slug of the app lives here (spec section 2), with who
// may open it and how the top menu names it.

export type Papel = 'cliente' | 'funcionario' | 'admin';

export const EQUIPE: readonly Papel[] = ['funcionario', 'admin'];
export const TODOS: readonly Papel[] = ['cliente', 'funcionario', 'admin'];

export interface Rota {
  caminho: string;
  /** Page title (document title and heading). */
  titulo: string;
  /** Who may open it; undefined: public (login, sign-up). */
  papeis?: readonly Papel[];
  /** Label in the top menu; absent: not in the menu. */
  menu?: string;
}

export const paths = {
  login: { caminho: '/', titulo: 'Entrar' },
  cadastro: { caminho: '/cadastro', titulo: 'Cadastro' },
  verificarEmail: { caminho: '/verificar-email', titulo: 'Confirmar e-mail' },
  home: { caminho: '/home2', titulo: 'Início', papeis: TODOS, menu: 'Home' },
  avaliacoes: {
    caminho: '/visualizarAvaliacao',
    titulo: 'Avaliações',
    papeis: TODOS,
    menu: 'Avaliações',
  },
  novaAvaliacao: { caminho: '/avaliacoes', titulo: 'Enviar avaliação', papeis: TODOS },
  dashboard: { caminho: '/dashboard', titulo: 'Dashboard', papeis: EQUIPE, menu: 'Dashboard' },
  locacao: { caminho: '/locacao', titulo: 'Locação', papeis: TODOS, menu: 'Alugar' },
  vistoria: {
    caminho: '/vistoria',
    titulo: 'Cadastrar vistoria',
    papeis: EQUIPE,
    menu: 'Cadastrar Vistorias',
  },
  vistoria2: {
    caminho: '/vistoria2',
    titulo: 'Consultar vistorias',
    papeis: EQUIPE,
    menu: 'Consultar Vistorias',
  },
  localizacao: {
    caminho: '/localizacao',
    titulo: 'Localização',
    papeis: TODOS,
    menu: 'Localizações',
  },
  manutencao: {
    caminho: '/manutencao',
    titulo: 'Manutenção',
    papeis: EQUIPE,
    menu: 'Manutenções',
  },
  estoque: { caminho: '/estoque', titulo: 'Estoque', papeis: EQUIPE, menu: 'Estoques' },
  categoria: { caminho: '/categoria', titulo: 'Categorias', papeis: EQUIPE, menu: 'Categorias' },
  historico: { caminho: '/historico', titulo: 'Histórico', papeis: TODOS, menu: 'Histórico' },
  infracoes: { caminho: '/infracoes', titulo: 'Infrações', papeis: TODOS, menu: 'Infrações' },
  notificacoes: {
    caminho: '/notificacoes',
    titulo: 'Notificações',
    papeis: TODOS,
    menu: 'Notificações',
  },
  conta: { caminho: '/conta', titulo: 'Minha conta', papeis: TODOS, menu: 'Minha conta' },
} as const satisfies Record<string, Rota>;

export type NomeDaRota = keyof typeof paths;

export const podeAbrir = (rota: Rota, papel: Papel | undefined): boolean =>
  !rota.papeis || (papel !== undefined && rota.papeis.includes(papel));

/** Menu entries in the spec's order, filtered by role. */
export const itensDoMenu = (papel: Papel | undefined): Rota[] =>
  Object.values(paths as Record<string, Rota>).filter((r) => r.menu && podeAbrir(r, papel));

/** A group of the staff menu: a disclosure button on wide screens, a section on a phone. */
export interface GrupoDoMenu {
  id: string;
  rotulo: string;
  rotas: Rota[];
}
export type EntradaDoMenu = Rota | GrupoDoMenu;
export const ehGrupo = (entrada: EntradaDoMenu): entrada is GrupoDoMenu => 'rotas' in entrada;

// Staff see 14 entries, which wrapped to three rows at 1366 px (issue 17): most of them live in
// four groups, so the header is one row from 1280 px. A unit test checks that every entry staff
// may open is here exactly once.
const MENU_DA_EQUIPE: readonly (
  NomeDaRota | { id: string; rotulo: string; rotas: readonly NomeDaRota[] }
)[] = [
  'home',
  {
    id: 'operacao',
    rotulo: 'Operação',
    rotas: ['locacao', 'vistoria', 'vistoria2', 'localizacao'],
  },
  { id: 'frota', rotulo: 'Frota', rotas: ['manutencao', 'estoque', 'categoria'] },
  { id: 'clientes', rotulo: 'Clientes', rotas: ['infracoes', 'avaliacoes'] },
  { id: 'relatorios', rotulo: 'Relatórios', rotas: ['dashboard', 'historico'] },
  'notificacoes',
  'conta',
];

/**
 * The top menu of a role: customers, with fewer entries, keep the flat list; staff get the
 * groups. Only what the role may open, and no empty group.
 */
export function menuDe(papel: Papel | undefined): EntradaDoMenu[] {
  if (!papel || !EQUIPE.includes(papel)) return itensDoMenu(papel);
  const permitidas = (nomes: readonly NomeDaRota[]): Rota[] =>
    nomes.map((n): Rota => paths[n]).filter((r) => r.menu && podeAbrir(r, papel));
  return MENU_DA_EQUIPE.flatMap((item): EntradaDoMenu[] => {
    if (typeof item === 'string') return permitidas([item]);
    const rotas = permitidas(item.rotas);
    return rotas.length ? [{ id: item.id, rotulo: item.rotulo, rotas }] : [];
  });
}
