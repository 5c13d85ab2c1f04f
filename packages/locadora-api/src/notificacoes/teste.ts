import { randomUUID } from 'node:crypto';
import type { SinoClient } from '@sino/client';
import { ErroLocadora } from '../erros.js';
import type { Repositorios } from '../repositorios.js';
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
 * business event shares. The limit holds across nodes: the last send is kept in the database.
 */
export function criarServicoDeTeste(deps: {
  repositorios: Pick<Repositorios, 'enviosDeTeste'>;
  sino: SinoClient | undefined;
  agora: () => Date;
  log: { warn(details: object, message: string): void };
}) {
  const envios = deps.repositorios.enviosDeTeste;
  return {
    async enviar(remetente: Remetente): Promise<void> {
      if (!deps.sino)
        throw new ErroLocadora(
          503,
          'As notificações estão indisponíveis no momento: o serviço de notificações não está configurado.',
        );
      const agora = deps.agora();
      const desde = new Date(agora.getTime() - INTERVALO_ENTRE_TESTES_S * 1000);
      if (!(await envios.registrar(remetente.id, agora, desde)))
        throw new ErroLocadora(
          429,
          `Aguarde ${INTERVALO_ENTRE_TESTES_S} segundos entre uma notificação de teste e outra.`,
        );
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
        await envios.esquecer(remetente.id, agora);
        throw new ErroLocadora(503, INDISPONIVEL);
      }
      if (status < 200 || status >= 300) {
        deps.log.warn({ usuario: remetente.id, status }, 'notificação de teste: Sino recusou');
        await envios.esquecer(remetente.id, agora);
        throw new ErroLocadora(503, INDISPONIVEL);
      }
    },
  };
}
export type ServicoDeTeste = ReturnType<typeof criarServicoDeTeste>;
