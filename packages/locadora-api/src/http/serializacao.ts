import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import {
  ResponseSerializationError,
  serializerCompiler as serializadorZod,
} from 'fastify-type-provider-zod';
import { z } from 'zod';

type Esquema = Record<string, unknown>;

// Keywords that only constrain values: a serializer has nothing to do with them.
const SO_VALIDACAO = new Set([
  '$schema',
  'description',
  'title',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'format',
]);

/**
 * The JSON Schema restricted to what fast-json-stringify writes exactly as `JSON.stringify`
 * of zod's output would: typed scalars, objects without extra properties, arrays, enums and
 * nullable values (zod's `anyOf [T, null]` becomes `type: [T, 'null']`, which needs no
 * validator at run time). Anything else (unions, records, defaults, references) gives null.
 */
export function esquemaSerializavel(esquema: unknown): Esquema | null {
  if (!esquema || typeof esquema !== 'object' || Array.isArray(esquema)) return null;
  const saida: Esquema = {};
  for (const [chave, valor] of Object.entries(esquema as Esquema)) {
    if (SO_VALIDACAO.has(chave)) continue;
    switch (chave) {
      case 'type':
        if (typeof valor !== 'string' && !Array.isArray(valor)) return null;
        saida.type = valor;
        break;
      case 'required':
      case 'enum':
      case 'const':
        saida[chave] = valor;
        break;
      case 'additionalProperties':
        // Extra properties are dropped (passwords must never leak): only `false` is accepted.
        if (valor !== false) return null;
        saida.additionalProperties = false;
        break;
      case 'properties': {
        if (!valor || typeof valor !== 'object') return null;
        const propriedades: Esquema = {};
        for (const [nome, sub] of Object.entries(valor as Esquema)) {
          const s = esquemaSerializavel(sub);
          if (!s) return null;
          propriedades[nome] = s;
        }
        saida.properties = propriedades;
        break;
      }
      case 'items': {
        const s = esquemaSerializavel(valor);
        if (!s) return null;
        saida.items = s;
        break;
      }
      case 'anyOf': {
        if (!Array.isArray(valor) || valor.length !== 2) return null;
        const nulo = valor.findIndex((v) => (v as Esquema)?.type === 'null');
        const outro = esquemaSerializavel(valor[1 - nulo]);
        if (nulo < 0 || !outro || typeof outro.type !== 'string' || outro.type === 'null')
          return null;
        Object.assign(saida, outro, { type: [outro.type, 'null'] });
        break;
      }
      default:
        return null;
    }
  }
  return typeof saida.type === 'string' || Array.isArray(saida.type) ? saida : null;
}

/**
 * Response serializer of the rental API. The route's zod schema stays the source of truth: it
 * is converted to JSON Schema once, when the route is built, and compiled by
 * fast-json-stringify, which writes only the declared properties. On a page of 50
 * reservations this is several times cheaper than zod's encode plus `JSON.stringify`, which
 * the schemas fast-json-stringify cannot express exactly still use (see decision 008).
 *
 * With `conferir` (the test suites), every compiled response is also checked against its zod
 * schema first, as zod's own serializer does, so a handler answering something its schema
 * does not describe fails the test instead of being written without a word.
 */
export function criarSerializadorDeRespostas(
  opcoes: { conferir?: boolean } = {},
): FastifySerializerCompiler<z.ZodType> {
  // Compiled at a route's first answer, not when the route is built: compiling every route's
  // serializer took a quarter of a second of each start, for routes a process may never answer.
  return (rota) => {
    let compilado: ((dado: unknown) => string) | undefined;
    return (dado: unknown) => (compilado ??= compilar(rota))(dado);
  };

  function compilar(rota: Parameters<FastifySerializerCompiler<z.ZodType>>[0]) {
    const zod = rota.schema;
    if (zod instanceof z.ZodType) {
      let json: unknown;
      try {
        json = z.toJSONSchema(zod, { target: 'draft-07', io: 'output', unrepresentable: 'throw' });
      } catch {
        json = null;
      }
      const esquema = esquemaSerializavel(json);
      if (esquema) {
        const escrever = fastJson(esquema);
        if (!opcoes.conferir) return escrever;
        return (dado: unknown) => {
          const r = z.safeEncode(zod, dado);
          if (r.error)
            throw new ResponseSerializationError(rota.method, rota.url, { cause: r.error });
          return escrever(r.data);
        };
      }
    }
    return serializadorZod(rota);
  }
}
