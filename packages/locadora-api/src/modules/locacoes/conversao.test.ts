import { describe, expect, it } from 'vitest';
import { TZDate } from '@date-fns/tz';
import { FUSO_HORARIO } from '@locadora/contract/dominio';
import {
  codigoDaLocacao,
  dataEHoraLocais,
  dataLocal,
  horaLocal,
  idDoCodigo,
  instanteLocal,
  paraHistorico,
} from './conversao.js';
import { paraDisponibilidade } from './disponibilidade-sql.js';
import type { LocacaoDetalhada } from './repositorio.js';

describe('local dates and hours (America/Sao_Paulo)', () => {
  it('reads a typed date and hour as Belo Horizonte time', () => {
    expect(instanteLocal('2030-07-10', '10:00').toISOString()).toBe('2030-07-10T13:00:00.000Z');
    expect(instanteLocal('2030-12-31', '23:30').toISOString()).toBe('2031-01-01T02:30:00.000Z');
  });

  it('shows an instant back as the local date and hour', () => {
    const instante = new Date('2031-01-01T02:30:00Z');
    expect(dataLocal(instante)).toBe('2030-12-31');
    expect(horaLocal(instante)).toBe('23:30');
  });

  it('follows the zone rules of the past (daylight saving until 2019)', () => {
    // January 2018 was summer time in Belo Horizonte: UTC-2.
    expect(instanteLocal('2018-01-15', '10:00').toISOString()).toBe('2018-01-15T12:00:00.000Z');
  });

  it('shows the same local date and hour as the zone rules, across rule changes', () => {
    // Every 16 hours and 53 minutes from 2016 to 2021 (summer time began on 2016-10-16,
    // 2017-10-15 and 2018-11-04 and ended until 2019-02-17), and each minute around two changes.
    const instantes: number[] = [];
    for (let t = Date.UTC(2016, 0, 1); t < Date.UTC(2021, 0, 1); t += 1013 * 60_000)
      instantes.push(t);
    for (const mudanca of [Date.UTC(2018, 10, 4, 3), Date.UTC(2019, 1, 17, 2)])
      for (let t = mudanca - 90 * 60_000; t <= mudanca + 90 * 60_000; t += 60_000)
        instantes.push(t);
    for (const t of instantes) {
      const z = new TZDate(t, FUSO_HORARIO);
      const esperado = {
        data: `${z.getFullYear()}-${String(z.getMonth() + 1).padStart(2, '0')}-${String(z.getDate()).padStart(2, '0')}`,
        hora: `${String(z.getHours()).padStart(2, '0')}:${String(z.getMinutes()).padStart(2, '0')}`,
      };
      expect(dataEHoraLocais(new Date(t)), new Date(t).toISOString()).toEqual(esperado);
    }
    expect(dataEHoraLocais(new Date('2018-11-04T02:59:00Z'))).toEqual({
      data: '2018-11-03',
      hora: '23:59',
    });
    expect(dataEHoraLocais(new Date('2018-11-04T03:00:00Z'))).toEqual({
      data: '2018-11-04',
      hora: '01:00',
    });
  });
});

describe('contract codes', () => {
  it('formats and reads LOC-000123', () => {
    expect(codigoDaLocacao(123)).toBe('LOC-000123');
    expect(codigoDaLocacao(1_234_567)).toBe('LOC-1234567');
    expect(idDoCodigo('LOC-000123')).toBe(123);
    expect(idDoCodigo(' loc000123 ')).toBe(123);
    expect(idDoCodigo('123')).toBe(123);
  });

  it.each(['', 'abc', 'LOC-', '0', '12.5', '-3', '99999999999', 'LOC-12a'])(
    'reads %j as no contract',
    (texto) => {
      expect(idDoCodigo(texto)).toBeNull();
    },
  );
});

describe('history item', () => {
  const base = {
    id: 7,
    nomeModelo: 'Gol',
    modeloDoVeiculo: null,
    placa: null,
    devolvidaEm: null,
    status: 'reservada',
    valorTotalCentavos: 24_900,
    observacao: null,
  } as unknown as LocacaoDetalhada;

  it('shows the booked model and the default observation before pickup', () => {
    expect(paraHistorico(base)).toEqual({
      Contrato: 7,
      Encerramento: null,
      Status: 'reservada',
      Veiculo: 'Gol',
      Valores: 249,
      Observacao: 'Nenhuma observação disponível',
    });
  });

  it("shows the assigned vehicle's model and formatted plate, and the local closing date", () => {
    const devolvida = {
      ...base,
      status: 'devolvida',
      modeloDoVeiculo: 'Onix',
      placa: 'QWC1074',
      devolvidaEm: new Date('2030-07-14T02:30:00Z'),
      observacao: 'Sem avarias.',
    } as LocacaoDetalhada;
    expect(paraHistorico(devolvida)).toMatchObject({
      Encerramento: '2030-07-13',
      Veiculo: 'Onix (QWC-1074)',
      Observacao: 'Sem avarias.',
    });
  });
});

describe('availability arithmetic', () => {
  it('never answers fewer than zero free vehicles', () => {
    expect(paraDisponibilidade({ frota: 6, reservadas: 4, em_manutencao: 1 }).livres).toBe(1);
    expect(paraDisponibilidade({ frota: 6, reservadas: 6, em_manutencao: 2 }).livres).toBe(0);
  });
});
