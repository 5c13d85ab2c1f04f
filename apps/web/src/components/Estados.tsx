import type { ReactNode } from 'react';
import { mensagemDoErro } from '../lib/api';

// Loading, empty and error states, the same on every screen.

export function Carregando({ texto = 'Carregando…' }: { texto?: string }) {
  return (
    <div className="estado" role="status" aria-live="polite">
      <span className="girador" aria-hidden="true" />
      <span>{texto}</span>
    </div>
  );
}

export function Vazio({ children }: { children: ReactNode }) {
  return (
    <div className="estado estado--vazio">
      <p>{children}</p>
    </div>
  );
}

export function ErroDeCarga({ erro, tentarDeNovo }: { erro: unknown; tentarDeNovo?: () => void }) {
  return (
    <div className="alerta alerta--erro" role="alert">
      <p>{mensagemDoErro(erro)}</p>
      {tentarDeNovo && (
        <button type="button" className="botao botao--secundario" onClick={tentarDeNovo}>
          Tentar de novo
        </button>
      )}
    </div>
  );
}

export function Alerta({
  tipo,
  children,
}: {
  tipo: 'erro' | 'sucesso' | 'info';
  children: ReactNode;
}) {
  return (
    <div className={`alerta alerta--${tipo}`} role={tipo === 'erro' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
