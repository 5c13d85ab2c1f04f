import { and, eq, lte } from 'drizzle-orm';
import type { Database } from '@locadora/db';
import { enviosDeTeste } from '../db/schema.js';

/** The last test notification of each account, shared by every node (`envios_de_teste`). */
export function criarRepositorioEnviosDeTeste(db: Database) {
  return {
    /**
     * Records a send at `agora` unless the account sent one after `desde`, in one statement
     * (two nodes asked at once cannot both record). True when recorded.
     */
    async registrar(idUsuario: number, agora: Date, desde: Date): Promise<boolean> {
      const gravados = await db
        .insert(enviosDeTeste)
        .values({ idUsuario, enviadoEm: agora })
        .onConflictDoUpdate({
          target: enviosDeTeste.idUsuario,
          set: { enviadoEm: agora },
          setWhere: lte(enviosDeTeste.enviadoEm, desde),
        })
        .returning({ idUsuario: enviosDeTeste.idUsuario });
      return gravados.length > 0;
    },
    /** Forgets the send recorded at `agora` (Sino did not take it: the person may retry at once). */
    async esquecer(idUsuario: number, agora: Date): Promise<void> {
      await db
        .delete(enviosDeTeste)
        .where(and(eq(enviosDeTeste.idUsuario, idUsuario), eq(enviosDeTeste.enviadoEm, agora)));
    },
  };
}
export type RepositorioEnviosDeTeste = ReturnType<typeof criarRepositorioEnviosDeTeste>;
