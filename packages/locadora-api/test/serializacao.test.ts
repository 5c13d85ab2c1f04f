import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { criarSerializadorDeRespostas, esquemaSerializavel } from '../src/http/serializacao.js';

type Rota = Parameters<ReturnType<typeof criarSerializadorDeRespostas>>[0];

function serializador(schema: z.ZodType, conferir = false) {
  const rota = { schema, method: 'GET', url: '/', httpStatus: '200' } as unknown as Rota;
  return criarSerializadorDeRespostas({ conferir })(rota) as (dado: unknown) => string;
}

const locacao = z.object({
  id_locacao: z.number().int(),
  valor_total: z.number(),
  status: z.enum(['reservada', 'retirada']),
  observacao: z.string().nullable(),
  itens: z.array(z.object({ nome: z.string().min(1) })),
});

describe('response serializer', () => {
  it('writes what JSON.stringify of the parsed value writes, for the schemas it compiles', () => {
    const dado = {
      id_locacao: 12,
      valor_total: 349.9,
      status: 'reservada',
      observacao: null,
      itens: [{ nome: 'Cadeirinha "infantil"' }],
    };
    expect(esquemaSerializavel(z.toJSONSchema(locacao, { target: 'draft-07' }))).not.toBeNull();
    expect(serializador(locacao)(dado)).toBe(JSON.stringify(locacao.parse(dado)));
  });

  it('drops properties the schema does not declare, such as a password hash', () => {
    const usuario = z.object({ id: z.number().int(), email: z.string() });
    const saida = serializador(usuario)({ id: 1, email: 'a@b.dev', senhaHash: '$argon2id$...' });
    expect(JSON.parse(saida)).toEqual({ id: 1, email: 'a@b.dev' });
  });

  it('leaves schemas it cannot write exactly to zod', () => {
    const uniao = z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]);
    const registro = z.record(z.string(), z.number());
    const comPadrao = z.object({ n: z.number().default(3) });
    for (const s of [uniao, registro, comPadrao])
      expect(esquemaSerializavel(z.toJSONSchema(s, { target: 'draft-07' }))).toBeNull();
    // zod's serializer still drops undeclared keys of a union's branch.
    expect(JSON.parse(serializador(uniao)({ a: 'x', segredo: 'y' }))).toEqual({ a: 'x' });
  });

  it('keeps a nullable object nullable', () => {
    const s = z.object({ local: z.object({ nome: z.string() }).nullable() });
    expect(serializador(s)({ local: null })).toBe('{"local":null}');
    expect(serializador(s)({ local: { nome: 'Centro', x: 1 } })).toBe(
      '{"local":{"nome":"Centro"}}',
    );
  });

  it('checks the response against its schema when asked (test suites), and only then', () => {
    const s = z.object({ id: z.number().int(), status: z.enum(['reservada']) });
    const errado = { id: 'doze', status: 'sumida' };
    expect(() => serializador(s, true)(errado)).toThrow(/doesn't match the schema/);
    expect(serializador(s, true)({ id: 1, status: 'reservada' })).toBe(
      '{"id":1,"status":"reservada"}',
    );
    // Unchecked (production), a value outside the enum is written as it is.
    expect(serializador(s)({ id: 1, status: 'sumida' })).toBe('{"id":1,"status":"sumida"}');
  });
});
