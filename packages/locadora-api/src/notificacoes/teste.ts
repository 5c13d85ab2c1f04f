import { randomUUID } from 'node:crypto';
import type { SinoClient } from '@sino/client';
import { ErroLocadora } from '../erros.js';
import { idDoAssinante } from './entregador.js';
import type { IdentificadorDeFluxo } from './fluxos.js';

/** Who asks for a test notification: the logged-in account. */
export interface Remetente {
  id: number;
  nome: string;
  email: string;
}

/** Seconds an account waits between two test notifications. */
export const INTERVALO_ENTRE_TESTES_S = 5;

const INDISPONIVEL =
  'Não foi possível enviar a notificação agora: o serviço de notificações não respondeu. Tente novamente em instantes.';

/**
 * "Enviar Notificação" on /notificacoes: a notification to oneself, sent to Sino at once (not
 * through the outbox) so the person learns right away whether it went. One per account every
 * few seconds: a held-down button must not spend the environment's trigger rate, which every
 * business event shares. The limit is per process, enough for a button.
 */
export function criarServicoDeTeste(deps: {
  sino: SinoClient | undefined;
  agora: () => Date;
  log: { warn(details: object, message: string): void };
}) {
  const ultimoEnvio = new Map<number, number>();
  return {
    async enviar(remetente: Remetente): Promise<void> {
      if (!deps.sino)
        throw new ErroLocadora(
          503,
          'As notificações estão indisponíveis no momento: o serviço de notificações não está configurado.',
        );
      const agora = deps.agora().getTime();
      const anterior = ultimoEnvio.get(remetente.id);
      if (anterior !== undefined && agora - anterior < INTERVALO_ENTRE_TESTES_S * 1000)
        throw new ErroLocadora(
          429,
          `Aguarde ${INTERVALO_ENTRE_TESTES_S} segundos entre uma notificação de teste e outra.`,
        );
      ultimoEnvio.set(remetente.id, agora);
      // Entries older than the interval say nothing any more.
      for (const [id, quando] of ultimoEnvio)
        if (agora - quando >= INTERVALO_ENTRE_TESTES_S * 1000) ultimoEnvio.delete(id);
      let status: number;
      try {
        const resposta = await deps.sino.POST('/v1/events/trigger', {
          body: {
            name: 'notificacao-de-teste' satisfies IdentificadorDeFluxo,
            transactionId: randomUUID(),
            to: {
              subscriberId: idDoAssinante(remetente.id),
              email: remetente.email,
              firstName: remetente.nome,
            },
            payload: { nome: remetente.nome.split(' ')[0] },
          },
          signal: AbortSignal.timeout(10_000),
        });
        status = resposta.response.status;
      } catch {
        deps.log.warn({ usuario: remetente.id }, 'notificação de teste: Sino não respondeu');
        ultimoEnvio.delete(remetente.id);
        throw new ErroLocadora(503, INDISPONIVEL);
      }
      if (status < 200 || status >= 300) {
        deps.log.warn({ usuario: remetente.id, status }, 'notificação de teste: Sino recusou');
        ultimoEnvio.delete(remetente.id);
        throw new ErroLocadora(503, INDISPONIVEL);
      }
    },
  };
}
export type ServicoDeTeste = ReturnType<typeof criarServicoDeTeste>;
