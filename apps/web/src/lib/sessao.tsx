import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { Papel } from '../config/paths';
import { aoExpirarSessao, api, definirTokenDeAcesso, renovarSessao, type SessaoDaApi } from './api';

export interface UsuarioDaSessao {
  id: number;
  nome: string;
  email: string;
  papel: Papel;
}

export type EstadoDaSessao =
  | { status: 'carregando' }
  | { status: 'anonimo'; motivo?: 'expirada' | 'saiu' }
  | { status: 'autenticado'; usuario: UsuarioDaSessao };

interface ContextoDaSessao {
  estado: EstadoDaSessao;
  entrar(email: string, senha: string): Promise<UsuarioDaSessao>;
  sair(): Promise<void>;
  /** After the account is deleted: the server already ended the session. */
  encerrarLocalmente(): void;
}

const Contexto = createContext<ContextoDaSessao | null>(null);

const paraUsuario = ({ id, nome, email, papel }: SessaoDaApi): UsuarioDaSessao => ({
  id,
  nome,
  email,
  papel,
});

/**
 * Holds who is logged in. The access token lives only in memory (lib/api); on a reload the
 * httpOnly refresh cookie restores the session, so nothing secret sits in local storage.
 */
export function ProvedorDeSessao({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [estado, setEstado] = useState<EstadoDaSessao>({ status: 'carregando' });

  useEffect(() => {
    let ativo = true;
    void renovarSessao().then((sessao) => {
      if (!ativo) return;
      setEstado(
        sessao ? { status: 'autenticado', usuario: paraUsuario(sessao) } : { status: 'anonimo' },
      );
    });
    const pararDeOuvir = aoExpirarSessao(() => {
      queryClient.clear();
      setEstado({ status: 'anonimo', motivo: 'expirada' });
    });
    return () => {
      ativo = false;
      pararDeOuvir();
    };
  }, [queryClient]);

  const entrar = useCallback(async (email: string, senha: string) => {
    const sessao = await api<SessaoDaApi>('/api/Cadastro/authenticate', {
      metodo: 'POST',
      corpo: { email, senha },
    });
    definirTokenDeAcesso(sessao.jwtToken);
    const usuario = paraUsuario(sessao);
    setEstado({ status: 'autenticado', usuario });
    return usuario;
  }, []);

  const encerrarLocalmente = useCallback(() => {
    definirTokenDeAcesso(null);
    queryClient.clear();
    setEstado({ status: 'anonimo', motivo: 'saiu' });
  }, [queryClient]);

  const sair = useCallback(async () => {
    try {
      await api('/api/Cadastro/logout', { metodo: 'POST' });
    } finally {
      encerrarLocalmente();
    }
  }, [encerrarLocalmente]);

  const valor = useMemo(
    () => ({ estado, entrar, sair, encerrarLocalmente }),
    [estado, entrar, sair, encerrarLocalmente],
  );
  return <Contexto.Provider value={valor}>{children}</Contexto.Provider>;
}

export function useSessao(): ContextoDaSessao {
  const contexto = useContext(Contexto);
  if (!contexto) throw new Error('useSessao must be used within ProvedorDeSessao');
  return contexto;
}

/** The logged-in user; only for components under a protected route. */
export function useUsuario(): UsuarioDaSessao {
  const { estado } = useSessao();
  if (estado.status !== 'autenticado') throw new Error('useUsuario outside a protected route');
  return estado.usuario;
}

export const ehEquipe = (usuario: UsuarioDaSessao): boolean => usuario.papel !== 'cliente';
