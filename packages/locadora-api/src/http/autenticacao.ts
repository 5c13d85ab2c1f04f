import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { naoAutenticado, proibido } from '../erros.js';
import { ehEquipe, type UsuarioAutenticado } from '../modules/contas/tipos.js';
import type { ServicoContas } from '../modules/contas/servico.js';

declare module 'fastify' {
  interface FastifyRequest {
    usuario: UsuarioAutenticado | null;
  }
}

/** OpenAPI security requirement of routes behind login. */
export const comLogin = [{ bearerAuth: [] }];

export interface Guardas {
  /** 401 unless a valid, unrevoked access token is sent as `Authorization: Bearer`. */
  autenticar: onRequestAsyncHookHandler;
  /** 403 unless the caller is staff (funcionario or admin). */
  somenteEquipe: onRequestAsyncHookHandler;
  somenteAdmin: onRequestAsyncHookHandler;
}

// Both run as onRequest hooks, before the body is read: 401 and 403 come before 400.
export function criarGuardas(contas: ServicoContas): Guardas {
  return {
    async autenticar(request) {
      const cabecalho = request.headers.authorization;
      const token = cabecalho?.match(/^Bearer\s+(\S+)$/i)?.[1];
      const usuario = token ? await contas.autenticar(token) : null;
      if (!usuario)
        throw naoAutenticado(
          token ? 'Sua sessão expirou. Faça login novamente.' : 'Faça login para continuar.',
        );
      request.usuario = usuario;
    },
    async somenteEquipe(request) {
      if (!request.usuario || !ehEquipe(request.usuario))
        throw proibido('Acesso restrito à equipe da locadora.');
    },
    async somenteAdmin(request) {
      if (request.usuario?.papel !== 'admin') throw proibido('Acesso restrito a administradores.');
    },
  };
}

/** The authenticated caller of a route guarded by `autenticar`. */
export function usuarioDe(request: FastifyRequest): UsuarioAutenticado {
  if (!request.usuario) throw naoAutenticado();
  return request.usuario;
}
