import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';

// Short confirmations ("Reserva Cadastrada com sucesso") in one polite live region, instead of
// the browser alerts of the earlier system.

type Tipo = 'sucesso' | 'erro' | 'info';
interface Aviso {
  id: number;
  tipo: Tipo;
  texto: string;
}

const Contexto = createContext<((texto: string, tipo?: Tipo) => void) | null>(null);
const DURACAO_MS = 6_000;

export function ProvedorDeAvisos({ children }: { children: ReactNode }) {
  const [avisos, setAvisos] = useState<Aviso[]>([]);
  const fechar = useCallback((id: number) => setAvisos((a) => a.filter((x) => x.id !== id)), []);
  const avisar = useCallback(
    (texto: string, tipo: Tipo = 'sucesso') => {
      const id = Date.now() + Math.random();
      setAvisos((a) => [...a.slice(-2), { id, tipo, texto }]);
      setTimeout(() => fechar(id), DURACAO_MS);
    },
    [fechar],
  );
  const valor = useMemo(() => avisar, [avisar]);
  return (
    <Contexto.Provider value={valor}>
      {children}
      <div className="avisos" role="status" aria-live="polite">
        {avisos.map((a) => (
          <div key={a.id} className={`aviso aviso--${a.tipo}`}>
            <span>{a.texto}</span>
            <button
              type="button"
              className="aviso__fechar"
              onClick={() => fechar(a.id)}
              aria-label="Fechar aviso"
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </Contexto.Provider>
  );
}

export function useAvisos() {
  const avisar = useContext(Contexto);
  if (!avisar) throw new Error('useAvisos must be used within ProvedorDeAvisos');
  return avisar;
}
