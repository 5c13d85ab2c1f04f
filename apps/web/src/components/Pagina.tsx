import { useEffect } from 'react';
import type { ReactNode } from 'react';

/** A screen's heading; also sets the document title so each route is announced by name. */
export function Pagina({
  titulo,
  descricao,
  acoes,
  children,
}: {
  titulo: string;
  descricao?: ReactNode;
  acoes?: ReactNode;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${titulo} · Locadora`;
  }, [titulo]);
  return (
    <section className="pagina" aria-labelledby="titulo-da-pagina">
      <header className="pagina__cabecalho">
        <div>
          <h1 id="titulo-da-pagina">{titulo}</h1>
          {descricao && <p className="pagina__descricao">{descricao}</p>}
        </div>
        {acoes && <div className="acoes">{acoes}</div>}
      </header>
      {children}
    </section>
  );
}
