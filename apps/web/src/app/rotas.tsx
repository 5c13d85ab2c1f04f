import { lazy, Suspense } from 'react';
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths, type NomeDaRota, type Rota } from '../config/paths';
import { Carregando } from '../components/Estados';
import PaginaLogin from '../features/auth/paginas/login';
import { ErroDeRota, ExigePapel, ExigeSessao, PaginaNaoEncontrada } from './Guardas';
import { Layout } from './Layout';

type Modulo = { default: ComponentType };

// Each screen lives in features/<feature>/paginas/<route name>.tsx, the name being its key in
// config/paths.ts. Login is in the first bundle; every other screen is its own chunk, loaded
// when opened.
const paginas = import.meta.glob<Modulo>([
  '../features/*/paginas/*.tsx',
  '!../features/auth/paginas/login.tsx',
]);

export const carregadoresDePagina = new Map<string, () => Promise<Modulo>>(
  Object.entries(paginas).map(([arquivo, carregar]) => [
    arquivo.replace(/^.*\/([^/]+)\.tsx$/, '$1'),
    carregar,
  ]),
);

function rotaDe(nome: NomeDaRota): RouteObject | null {
  const carregar = carregadoresDePagina.get(nome);
  if (!carregar) return null;
  const rota: Rota = paths[nome];
  const Tela = lazy(carregar);
  const tela = (
    <Suspense fallback={<Carregando />}>
      <Tela />
    </Suspense>
  );
  return {
    path: rota.caminho,
    element: rota.papeis ? <ExigePapel rota={rota}>{tela}</ExigePapel> : tela,
  };
}

const nomes = Object.keys(paths) as NomeDaRota[];
const publicas = nomes.filter((n) => !(paths[n] as Rota).papeis && n !== 'login');
const protegidas = nomes.filter((n) => (paths[n] as Rota).papeis);
const existentes = (lista: NomeDaRota[]) =>
  lista.map(rotaDe).filter((r): r is RouteObject => r !== null);

export const roteador = createBrowserRouter([
  {
    errorElement: <ErroDeRota />,
    children: [
      { path: paths.login.caminho, element: <PaginaLogin /> },
      ...existentes(publicas),
      {
        element: (
          <ExigeSessao>
            <Layout />
          </ExigeSessao>
        ),
        errorElement: <ErroDeRota />,
        children: [...existentes(protegidas), { path: '*', element: <PaginaNaoEncontrada /> }],
      },
    ],
  },
]);
