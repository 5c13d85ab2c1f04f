import { createHash } from 'node:crypto';
import type { Database } from '@locadora/db';
import { ErroLocadora } from '../../erros.js';
import { criarRepositorioTentativas } from './repositorio-tentativas.js';

export interface LimitesDeLogin {
  maximoFalhasPorEmail: number;
  maximoFalhasPorEndereco: number;
  bloqueioMinutos: number;
}

/** An attempt the throttle let through: its password may be checked. */
export interface TentativaLiberada {
  bloqueada: false;
  /**
   * The password was right: the e-mail's count is cleared and the address gets this attempt
   * back (an office behind one address logs in all day). A wrong password needs no call: the
   * attempt was counted before the check and stays counted.
   */
  acertou(): Promise<void>;
}

export interface TentativaBloqueada {
  bloqueada: true;
  /** Whole seconds until the e-mail and the address may try again. */
  esperaSegundos: number;
}

export interface LimitadorDeLogin {
  /**
   * Counts an attempt against the e-mail and the client address before any password is
   * checked, each count one atomic statement in the database: however many attempts race, at
   * most the limit of them get through, across every server process.
   */
  reservar(
    email: string,
    endereco: string,
    agora: Date,
  ): Promise<TentativaLiberada | TentativaBloqueada>;
}

/** 429 from the login throttle; the routes turn `esperaSegundos` into `Retry-After`. */
export class LoginBloqueado extends ErroLocadora {
  constructor(readonly esperaSegundos: number) {
    const minutos = Math.ceil(esperaSegundos / 60);
    super(
      429,
      `Muitas tentativas de login sem sucesso. Tente novamente em ${minutos} ${minutos === 1 ? 'minuto' : 'minutos'}.`,
    );
  }
}

// Ended windows removed per attempt: attempts add at most two rows each, so this keeps up.
const LIMPEZA_POR_TENTATIVA = 100;

/** The key of an e-mail or address: a digest, so the table holds neither in clear. */
const chaveDe = (tipo: 'email' | 'endereco', valor: string): string =>
  createHash('sha256').update(`${tipo}:${valor}`).digest('hex');

/**
 * Failed logins per e-mail and, with a wider limit, per client address (an office behind one
 * address must not lock everyone out). The attempt that reaches a limit blocks the key for
 * `bloqueioMinutos`; meanwhile every attempt, right password or not, is refused (429).
 */
export function criarLimitadorDeLogin(db: Database, limites: LimitesDeLogin): LimitadorDeLogin {
  const repo = criarRepositorioTentativas(db);
  const bloqueioMs = limites.bloqueioMinutos * 60_000;

  return {
    async reservar(email, endereco, agora) {
      await repo.apagarEncerradas(agora, LIMPEZA_POR_TENTATIVA);
      const fimDoBloqueio = new Date(agora.getTime() + bloqueioMs);
      const contar = async (chave: string, maximo: number) => ({
        chave,
        maximo,
        janela: await repo.contar(chave, agora, fimDoBloqueio, maximo),
      });
      const porEmail = await contar(
        chaveDe('email', email.trim().toLowerCase()),
        limites.maximoFalhasPorEmail,
      );
      const porEndereco = await contar(
        chaveDe('endereco', endereco),
        limites.maximoFalhasPorEndereco,
      );
      const contadas = [porEmail, porEndereco];

      const excedidas = contadas.filter((c) => c.janela.falhas > c.maximo);
      if (excedidas.length > 0) {
        // No password is checked, so the attempt is taken back from both keys: a refusal must
        // not eat into the other key's limit. Only attempts whose password was checked stay.
        for (const c of contadas) await repo.descontar(c.chave, c.janela.inicio);
        // Capped: a concurrent attempt read the clock a little later and started the block.
        const esperaMs = Math.min(
          bloqueioMs,
          Math.max(...excedidas.map((c) => c.janela.fim.getTime() - agora.getTime())),
        );
        return { bloqueada: true, esperaSegundos: Math.max(1, Math.ceil(esperaMs / 1000)) };
      }
      return {
        bloqueada: false,
        async acertou() {
          await repo.apagar(porEmail.chave);
          await repo.descontar(porEndereco.chave, porEndereco.janela.inicio);
        },
      };
    },
  };
}
