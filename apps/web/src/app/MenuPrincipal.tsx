import { useEffect, useRef, useState } from 'react';
import type { FocusEvent, KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { ehGrupo, menuDe, paths, type GrupoDoMenu } from '../config/paths';
import { useSessao, useUsuario } from '../lib/sessao';

const PAPEIS = { cliente: 'Cliente', funcionario: 'Funcionário', admin: 'Administrador' } as const;

const idDaLista = (grupo: GrupoDoMenu) => `menu-grupo-${grupo.id}`;
const idDoTitulo = (grupo: GrupoDoMenu) => `menu-grupo-${grupo.id}-titulo`;

/** The controls in sight (a phone hides the group buttons, a closed group its links). */
const emVista = (els: Iterable<HTMLElement>) =>
  [...els].filter((el) => el.getClientRects().length > 0);

/** Where an arrow key, Home or End moves the focus in a list of controls, if anywhere. */
function destino(
  tecla: string,
  controles: HTMLElement[],
  atual: HTMLElement,
  anterior: string,
  proxima: string,
) {
  const i = controles.indexOf(atual);
  if (tecla === proxima) return controles[i + 1];
  if (tecla === anterior) return controles[i - 1];
  if (tecla === 'Home') return controles[0];
  if (tecla === 'End') return controles.at(-1);
  return undefined;
}

/**
 * The main menu, only what the role may open. Staff's groups follow WAI-ARIA's disclosure
 * navigation: a button with aria-expanded shows its links, one group at a time; Escape closes it
 * and gives the focus back to its button; arrows move along the row and inside a group. On a
 * phone the menu folds behind "Menu" and the groups are plain sections of it (estilos.css).
 */
export function MenuPrincipal() {
  const usuario = useUsuario();
  const { sair } = useSessao();
  const navegar = useNavigate();
  const { pathname } = useLocation();
  const [aberto, setAberto] = useState(false);
  const [grupoAberto, setGrupoAberto] = useState<string | null>(null);
  const [menuDoLocal, setMenuDoLocal] = useState(pathname);
  const nav = useRef<HTMLElement>(null);
  const alternar = useRef<HTMLButtonElement>(null);
  if (menuDoLocal !== pathname) {
    // Following a link closes the folded menu and the group.
    setMenuDoLocal(pathname);
    setAberto(false);
    setGrupoAberto(null);
  }
  const fechar = () => {
    setAberto(false);
    setGrupoAberto(null);
  };

  // A press outside the open group closes it; outside the menu, the folded menu too.
  useEffect(() => {
    if (!grupoAberto && !aberto) return;
    const fora = (e: PointerEvent) => {
      const alvo = e.target instanceof Element ? e.target : null;
      if (alvo?.closest('[data-grupo]')?.getAttribute('data-grupo') !== grupoAberto)
        setGrupoAberto(null);
      if (!alvo || !nav.current?.contains(alvo)) setAberto(false);
    };
    document.addEventListener('pointerdown', fora);
    return () => document.removeEventListener('pointerdown', fora);
  }, [grupoAberto, aberto]);

  function abrirGrupoEFocar(grupo: GrupoDoMenu, ultimo: boolean) {
    flushSync(() => setGrupoAberto(grupo.id));
    const links = document.getElementById(idDaLista(grupo))?.querySelectorAll('a');
    (ultimo ? links?.[links.length - 1] : links?.[0])?.focus();
  }

  function teclar(e: KeyboardEvent<HTMLElement>) {
    const alvo = e.target as HTMLElement;
    if (e.key === 'Escape') {
      if (grupoAberto) {
        document.querySelector<HTMLElement>(`[aria-controls="menu-grupo-${grupoAberto}"]`)?.focus();
        setGrupoAberto(null);
      } else if (aberto) {
        setAberto(false);
        alternar.current?.focus();
      } else return;
      e.preventDefault();
      return;
    }
    const sublista = alvo.closest<HTMLElement>('[data-sublista]');
    const proximo = sublista
      ? destino(e.key, [...sublista.querySelectorAll('a')], alvo, 'ArrowUp', 'ArrowDown')
      : alvo.hasAttribute('data-topo') && nav.current
        ? destino(
            e.key,
            emVista(nav.current.querySelectorAll<HTMLElement>('[data-topo]')),
            alvo,
            'ArrowLeft',
            'ArrowRight',
          )
        : undefined;
    if (proximo) {
      e.preventDefault();
      proximo.focus();
    }
  }

  function teclarNoGrupo(e: KeyboardEvent<HTMLButtonElement>, grupo: GrupoDoMenu) {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    abrirGrupoEFocar(grupo, e.key === 'ArrowUp');
  }

  // Tabbing out of an open group closes it. A click that takes no focus (Safari's links) has no
  // relatedTarget: the press outside (above) handles that.
  function sairDoGrupo(e: FocusEvent<HTMLLIElement>, grupo: GrupoDoMenu) {
    if (
      grupoAberto === grupo.id &&
      e.relatedTarget instanceof Node &&
      !e.currentTarget.contains(e.relatedTarget)
    )
      setGrupoAberto(null);
  }

  return (
    <nav
      ref={nav}
      aria-label="Menu principal"
      className={aberto ? 'menu menu--aberto' : 'menu'}
      onKeyDown={teclar}
    >
      <button
        ref={alternar}
        type="button"
        className="menu__alternar"
        aria-expanded={aberto}
        aria-controls="menu-principal"
        onClick={() => setAberto((a) => !a)}
      >
        Menu
      </button>
      <div id="menu-principal" className="menu__painel">
        <ul className="menu__lista">
          {menuDe(usuario.papel).map((entrada) =>
            ehGrupo(entrada) ? (
              <li
                key={entrada.id}
                className="menu__grupo"
                data-grupo={entrada.id}
                onBlur={(e) => sairDoGrupo(e, entrada)}
              >
                <button
                  type="button"
                  data-topo
                  className={
                    entrada.rotas.some((r) => r.caminho === pathname)
                      ? 'menu__grupo-botao menu__grupo-botao--atual'
                      : 'menu__grupo-botao'
                  }
                  aria-expanded={grupoAberto === entrada.id}
                  aria-controls={idDaLista(entrada)}
                  onClick={() => setGrupoAberto((g) => (g === entrada.id ? null : entrada.id))}
                  onKeyDown={(e) => teclarNoGrupo(e, entrada)}
                >
                  {entrada.rotulo}
                </button>
                {/* The section's name on a phone, where the group is always open. */}
                <span id={idDoTitulo(entrada)} className="menu__secao">
                  {entrada.rotulo}
                </span>
                <ul
                  id={idDaLista(entrada)}
                  className="menu__sublista"
                  aria-labelledby={idDoTitulo(entrada)}
                  data-sublista
                  hidden={grupoAberto !== entrada.id}
                >
                  {entrada.rotas.map((rota) => (
                    <li key={rota.caminho}>
                      <NavLink to={rota.caminho} onClick={fechar}>
                        {rota.menu}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </li>
            ) : (
              <li key={entrada.caminho}>
                <NavLink to={entrada.caminho} data-topo onClick={fechar}>
                  {entrada.menu}
                </NavLink>
              </li>
            ),
          )}
        </ul>
        <div className="menu__usuario">
          <span className="menu__nome" title={usuario.nome}>
            <span>{usuario.nome}</span> <small>({PAPEIS[usuario.papel]})</small>
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
      </div>
    </nav>
  );
}
