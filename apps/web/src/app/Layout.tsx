import { lazy, Suspense, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { itensDoMenu, paths } from '../config/paths';
import { useSessao, useUsuario } from '../lib/sessao';

// The bell carries the inbox client (socket, sanitiser): its own chunk, loaded after the page.
const Campainha = lazy(() => import('../features/notificacoes/componentes/Campainha'));

const PAPEIS = { cliente: 'Cliente', funcionario: 'Funcionário', admin: 'Administrador' } as const;

/** Top menu (only what the role may open) and the page; the menu folds on phone-width screens. */
export function Layout() {
  const usuario = useUsuario();
  const { sair } = useSessao();
  const navegar = useNavigate();
  const local = useLocation();
  const [menuAberto, setMenuAberto] = useState(false);
  const [menuDoLocal, setMenuDoLocal] = useState(local.pathname);
  if (menuDoLocal !== local.pathname) {
    // Following a link closes the folded menu.
    setMenuDoLocal(local.pathname);
    setMenuAberto(false);
  }

  return (
    <>
      <a className="pular" href="#conteudo">
        Pular para o conteúdo
      </a>
      <header className="topo">
        <div className="topo__barra">
          <NavLink to={paths.home.caminho} className="marca">
            Locadora
          </NavLink>
          <button
            type="button"
            className="topo__alternar"
            aria-expanded={menuAberto}
            aria-controls="menu-principal"
            onClick={() => setMenuAberto((a) => !a)}
          >
            Menu
          </button>
        </div>
        <nav
          id="menu-principal"
          aria-label="Menu principal"
          className={menuAberto ? 'menu menu--aberto' : 'menu'}
        >
          <ul>
            {itensDoMenu(usuario.papel).map((rota) => (
              <li key={rota.caminho}>
                <NavLink to={rota.caminho}>{rota.menu}</NavLink>
              </li>
            ))}
          </ul>
          <div className="menu__usuario">
            <Suspense fallback={<span className="campainha campainha--reservada" aria-hidden />}>
              <Campainha />
            </Suspense>
            <span>
              {usuario.nome} <small>({PAPEIS[usuario.papel]})</small>
            </span>
            <button
              type="button"
              className="botao botao--secundario"
              onClick={() => {
                void sair().then(() => navegar(paths.login.caminho, { replace: true }));
              }}
            >
              Sair
            </button>
          </div>
        </nav>
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
