import { describe, expect, it } from 'vitest';
import { capitalizar, flexionar, id, inteiroNaoNegativo, dinheiro } from '../src/campos.js';
import { cnhHabilitaCarro } from '../src/cnh.js';
import { cpfValido, formatarCpf, normalizarCpf } from '../src/cpf.js';
import { formatarPlaca, placaValida } from '../src/placa.js';
import {
  calcularOrcamento,
  contarDiarias,
  formatarReais,
  reaisParaCentavos,
} from '../src/preco.js';

const mensagem = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

describe('CPF', () => {
  it.each(['529.982.247-25', '52998224725', '111.444.777-35'])('accepts %s', (cpf) => {
    expect(cpfValido(cpf)).toBe(true);
  });
  it.each([
    ['529.982.247-24', 'second check digit wrong'],
    ['529.982.247-15', 'first check digit wrong'],
    ['111.111.111-11', 'all digits equal'],
    ['5299822472', 'ten digits'],
    ['', 'empty'],
  ])('refuses %s (%s)', (cpf) => {
    expect(cpfValido(cpf)).toBe(false);
  });
  it('normalises and formats', () => {
    expect(normalizarCpf('529.982.247-25')).toBe('52998224725');
    expect(formatarCpf('52998224725')).toBe('529.982.247-25');
  });
});

describe('plates', () => {
  it.each(['ABC1D23', 'abc1d23', 'ABC-1234', 'abc1234'])('accepts %s', (placa) => {
    expect(placaValida(placa)).toBe(true);
  });
  it.each(['AB1C234', 'ABCD123', 'ABC-12345', '1234567'])('refuses %s', (placa) => {
    expect(placaValida(placa)).toBe(false);
  });
  it('shows old plates with the hyphen and Mercosul ones without', () => {
    expect(formatarPlaca('abc1234')).toBe('ABC-1234');
    expect(formatarPlaca('abc-1d23')).toBe('ABC1D23');
  });
});

describe('driving licence', () => {
  it.each([
    ['B', true],
    ['AB', true],
    ['E', true],
    ['A', false],
    ['ACC', false],
  ])('category %s drives a car: %s', (categoria, esperado) => {
    expect(cnhHabilitaCarro(categoria)).toBe(esperado);
  });
});

describe('price', () => {
  it.each([
    ['2026-05-01', '2026-05-04', 3],
    ['2026-05-01', '2026-05-01', 1],
    // Daylight saving elsewhere must never shift a day: calendar dates are counted in UTC.
    ['2026-10-31', '2026-11-02', 2],
    ['2026-02-27', '2026-03-01', 2],
  ])('%s to %s is %i daily rates', (retirada, entrega, diarias) => {
    expect(contarDiarias(retirada, entrega)).toBe(diarias);
  });

  it('totals the daily value times the days plus the extra, in cents', () => {
    expect(
      calcularOrcamento({
        dataRetirada: '2026-05-01',
        dataEntrega: '2026-05-04',
        valorDiariaCentavos: 12_990,
        valorAdicionalCentavos: 4_500,
      }),
    ).toEqual({
      diarias: 3,
      valorDiariaCentavos: 12_990,
      valorAdicionalCentavos: 4_500,
      valorTotalCentavos: 43_470,
    });
  });

  it('converts reais to cents without floating-point drift', () => {
    expect(reaisParaCentavos(0.1 + 0.2)).toBe(30);
    expect(reaisParaCentavos(195.23)).toBe(19_523);
    expect(formatarReais(1234.5).replace(/\s/g, ' ')).toBe('R$ 1.234,50');
  });
});

describe('Portuguese field messages', () => {
  it('drops the article and agrees the adjective with it', () => {
    expect(capitalizar('a quilometragem')).toBe('Quilometragem');
    expect(flexionar('a quilometragem', 'negativo')).toBe('negativa');
    expect(flexionar('o veículo', 'inválido')).toBe('inválido');
    expect(flexionar('valor', 'negativo')).toBe('negativo');
  });

  it('reads an empty box or null as missing, never as zero', () => {
    for (const vazio of ['', '   ', null]) {
      expect(mensagem(inteiroNaoNegativo('a quantidade').safeParse(vazio))).toBe(
        'Informe a quantidade.',
      );
      expect(mensagem(dinheiro('o valor', { positivo: false }).safeParse(vazio))).toBe(
        'Informe o valor em reais.',
      );
      expect(mensagem(id('a categoria').safeParse(vazio))).toBe('Informe a categoria.');
    }
    expect(inteiroNaoNegativo('a quantidade').parse('0')).toBe(0);
    expect(dinheiro('o valor').parse('89.9')).toBe(89.9);
    expect(inteiroNaoNegativo('a quilometragem').optional().parse(undefined)).toBeUndefined();
  });

  it('refuses a positive value that is zero to the cent (it would be stored as 0.00)', () => {
    for (const quaseZero of [2.4451671691781683e-287, 1e-9, 0.004]) {
      expect(dinheiro('o valor').safeParse(quaseZero).success).toBe(false);
    }
    expect(mensagem(dinheiro('o valor').safeParse(1e-300))).toBe('Valor deve ser maior que zero.');
    expect(dinheiro('o valor').parse(0.01)).toBe(0.01);
  });

  it('names the field in agreement', () => {
    expect(mensagem(inteiroNaoNegativo('a quantidade').safeParse(-1))).toBe(
      'Quantidade não pode ser negativa.',
    );
    expect(mensagem(id('a categoria').safeParse(1.5))).toBe('Categoria inválida.');
    expect(mensagem(id('o veículo').safeParse(1.5))).toBe('Veículo inválido.');
    expect(mensagem(dinheiro('o custo', { positivo: false }).safeParse(-1))).toBe(
      'Custo não pode ser negativo.',
    );
  });
});
