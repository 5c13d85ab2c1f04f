import { lazy, Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { paths } from '../config/paths';
import { MenuPrincipal } from './MenuPrincipal';

// The bell carries the inbox client (socket, sanitiser): its own chunk, loaded after the page.
const Campainha = lazy(() => import('../features/notificacoes/componentes/Campainha'));

/** The top bar (brand, menu, bell) in one row, and the page. */
export function Layout() {
  return (
    <>
      <a className="pular" href="#conteudo">
        Pular para o conteúdo
      </a>
      <header className="topo">
        <Link to={paths.home.caminho} className="marca">
          Locadora
        </Link>
        <MenuPrincipal />
        {/* Outside the menu, so the bell and its count are in sight at every width, a folded
            phone menu included (issue 17). */}
        <Suspense fallback={<span className="campainha campainha--reservada" aria-hidden />}>
          <Campainha />
        </Suspense>
      </header>
      <main id="conteudo" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="rodape">
        © {new Date().getFullYear()} Locadora. Todos os direitos reservados.
      </footer>
    </>
  );
}
