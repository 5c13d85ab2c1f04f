import { describe, expect, it } from 'vitest';
import { noFuturo, TOLERANCIA_RELOGIO_MS } from '../src/modules/vistorias/servico.js';

// 23:58 of 23/11/2026 in Belo Horizonte (UTC-3): the local day ends in two minutes.
const quaseMeiaNoite = new Date('2026-11-24T02:58:00Z');

describe('noFuturo (inspection and maintenance dates)', () => {
  it("refuses tomorrow's date at any hour, even two minutes before local midnight", () => {
    expect(noFuturo('2026-11-24', quaseMeiaNoite)).toBe(true);
    expect(noFuturo('2026-11-24', new Date('2026-11-23T12:00:00Z'))).toBe(true);
  });

  it("accepts today's and earlier dates, by the local day rather than UTC's", () => {
    // In UTC it is already the 24th; in Belo Horizonte it is still the 23rd.
    expect(noFuturo('2026-11-23', quaseMeiaNoite)).toBe(false);
    expect(noFuturo('2026-11-01', quaseMeiaNoite)).toBe(false);
    expect(noFuturo('2026-11-24', new Date('2026-11-24T03:00:00Z'))).toBe(false);
  });

  it("allows a date-time a device's clock ahead, and nothing beyond", () => {
    const agora = quaseMeiaNoite.getTime();
    expect(noFuturo(new Date(agora + TOLERANCIA_RELOGIO_MS).toISOString(), quaseMeiaNoite)).toBe(
      false,
    );
    expect(
      noFuturo(new Date(agora + TOLERANCIA_RELOGIO_MS + 1000).toISOString(), quaseMeiaNoite),
    ).toBe(true);
  });
});
