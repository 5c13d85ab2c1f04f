import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';

/**
 * A modal confirmation on the native <dialog>: focus is trapped and Esc cancels, with no
 * library needed.
 */
export function Confirmacao({
  aberta,
  titulo,
  children,
  confirmar = 'Confirmar',
  cancelar = 'Cancelar',
  perigosa = false,
  ocupada = false,
  aoConfirmar,
  aoCancelar,
}: {
  aberta: boolean;
  titulo: string;
  children?: ReactNode;
  confirmar?: string;
  cancelar?: string;
  perigosa?: boolean;
  ocupada?: boolean;
  aoConfirmar: () => void;
  aoCancelar: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialogo = ref.current;
    if (!dialogo) return;
    if (aberta && !dialogo.open) dialogo.showModal();
    if (!aberta && dialogo.open) dialogo.close();
  }, [aberta]);

  return (
    <dialog
      ref={ref}
      className="dialogo"
      aria-labelledby="dialogo-titulo"
      onCancel={(e) => {
        e.preventDefault();
        aoCancelar();
      }}
    >
      <h2 id="dialogo-titulo">{titulo}</h2>
      {children && <div className="dialogo__corpo">{children}</div>}
      <div className="acoes">
        <button type="button" className="botao botao--secundario" onClick={aoCancelar}>
          {cancelar}
        </button>
        <button
          type="button"
          className={perigosa ? 'botao botao--perigo' : 'botao'}
          onClick={aoConfirmar}
          disabled={ocupada}
        >
          {ocupada ? 'Aguarde…' : confirmar}
        </button>
      </div>
    </dialog>
  );
}
