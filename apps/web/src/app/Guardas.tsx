import { Link, Navigate, useLocation, useRouteError, isRouteErrorResponse } from 'react-router';
import type { ReactNode } from 'react';
import { paths, podeAbrir, type Rota } from '../config/paths';
import { useSessao } from '../lib/sessao';
import { Carregando } from '../components/Estados';
import { Pagina } from '../components/Pagina';

/** Logged-in users only; the server is the authority, this only keeps the screens honest. */
export function ExigeSessao({ children }: { children: ReactNode }) {
  const { estado } = useSessao();
  const local = useLocation();
  if (estado.status === 'carregando') return <Carregando texto="Verificando sua sessão…" />;
  if (estado.status === 'anonimo')
    return (
      <Navigate
        to={paths.login.caminho}
        replace
        state={{ de: local.pathname + local.search, motivo: estado.motivo }}
      />
    );
  return <>{children}</>;
}

/** A route the user's role may not open shows why instead of a broken screen. */
export function ExigePapel({ rota, children }: { rota: Rota; children: ReactNode }) {
  const { estado } = useSessao();
  if (estado.status === 'autenticado' && !podeAbrir(rota, estado.usuario.papel))
    return (
      <Pagina titulo="Acesso restrito">
        <p>Esta área é exclusiva da equipe da locadora.</p>
        <p>
          <Link to={paths.home.caminho}>Voltar ao início</Link>
        </p>
      </Pagina>
    );
  return <>{children}</>;
}

export function PaginaNaoEncontrada() {
  return (
    <Pagina titulo="Página não encontrada">
      <p>O endereço acessado não existe.</p>
      <p>
        <Link to={paths.home.caminho}>Voltar ao início</Link>
      </p>
    </Pagina>
  );
}

/** A screen that crashed or whose code failed to load; the rest of the app keeps working. */
export function ErroDeRota() {
  const erro = useRouteError();
  if (isRouteErrorResponse(erro) && erro.status === 404) return <PaginaNaoEncontrada />;
  const carregamento =
    erro instanceof Error &&
    /dynamically imported module|Importing a module script/i.test(erro.message);
  return (
    <Pagina titulo="Algo deu errado">
      <p role="alert">
        {carregamento
          ? 'Não foi possível carregar esta tela. Verifique sua conexão e recarregue a página.'
          : 'Esta tela encontrou um erro inesperado.'}
      </p>
      <p>
        <button type="button" className="botao" onClick={() => window.location.reload()}>
          Recarregar
        </button>{' '}
        <Link to={paths.home.caminho}>Voltar ao início</Link>
      </p>
    </Pagina>
  );
}
