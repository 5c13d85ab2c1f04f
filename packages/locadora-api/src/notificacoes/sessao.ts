import { createHmac } from 'node:crypto';
import { ErroLocadora } from '../erros.js';
import { idDoAssinante } from './entregador.js';
import type { LigacaoAoSino } from './ligacao.js';

export type { AmbienteSino } from './ligacao.js';

/** What the bell needs to open the logged-in user's inbox. */
export interface SessaoDoSino {
  applicationIdentifier: string;
  subscriberId: string;
  /** hex(HMAC-SHA256(API key, subscriberId)): Locadora's environment requires it. */
  subscriberHash: string;
}

/**
 * The inbox session of a Locadora account: its Sino subscriber and the hash that proves the
 * server vouches for it. Computed here, on the server, so the key never reaches the browser
 * and nobody can open another account's inbox by changing the subscriberId.
 */
export function criarSessoesDoSino(ligacao: Pick<LigacaoAoSino, 'ambiente'> | undefined) {
  return {
    async de(usuarioId: number): Promise<SessaoDoSino> {
      const ambiente = await ligacao?.ambiente();
      if (!ambiente)
        throw new ErroLocadora(
          503,
          'As notificações estão indisponíveis no momento: o serviço de notificações não está configurado.',
        );
      const subscriberId = idDoAssinante(usuarioId);
      return {
        applicationIdentifier: ambiente.applicationIdentifier,
        subscriberId,
        subscriberHash: createHmac('sha256', ambiente.apiKey).update(subscriberId).digest('hex'),
      };
    },
  };
}
export type SessoesDoSino = ReturnType<typeof criarSessoesDoSino>;
