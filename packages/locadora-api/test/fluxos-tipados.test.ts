import { describe, expect, it } from 'vitest';
import { fluxosDaLocadora, IDENTIFICADORES_DOS_FLUXOS } from '../src/notificacoes/fluxos.js';
import type { NovoEvento } from '../src/notificacoes/repositorio-outbox.js';

/**
 * Issue 18: the workflows Locadora triggers are typed from one list. `npm run typecheck` is
 * the test of the first part: the `@ts-expect-error` below fails it if an event of a workflow
 * outside the list ever compiles.
 */
describe("Locadora's workflow identifiers", () => {
  it('an event names a workflow of the list, or it does not compile', () => {
    const conhecido: NovoEvento = { fluxo: 'reserva-confirmada', payload: {} };
    // @ts-expect-error a workflow Locadora does not define is a type error
    const desconhecido: NovoEvento = { fluxo: 'reserva-esquecida', payload: {} };
    expect(IDENTIFICADORES_DOS_FLUXOS).toContain(conhecido.fluxo);
    expect(IDENTIFICADORES_DOS_FLUXOS).not.toContain(desconhecido.fluxo);
  });

  it('every identifier of the list has one definition, in the order of the list', () => {
    const fluxos = fluxosDaLocadora({ urlPublica: 'https://locadora.test', layoutId: 'l' });
    expect(fluxos.map((f) => f.identifier)).toEqual([...IDENTIFICADORES_DOS_FLUXOS]);
  });
});
