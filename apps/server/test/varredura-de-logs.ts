import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Looks through log lines for what no log line may carry: secrets and personal data. Patterns
 * catch every value of a kind (any e-mail, any valid CPF, any argon2 hash, any JWT...); the
 * values the test apps registered (`testRunLog().knownSecrets`) catch the rest (passwords,
 * the test keys). Used by the globalSetup on the whole run's logs (varredura-da-execucao.ts).
 */
export interface Achado {
  tipo: string;
  arquivo: string;
  linha: number;
  /** The finding, cut short: the report must not spread it further. */
  trecho: string;
}

interface Padrao {
  tipo: string;
  padrao: RegExp;
  /** A second look at a match, for patterns that would also take ordinary numbers. */
  confere?: (texto: string) => boolean;
}

/** A CPF's two check digits (an 11-digit number that passes is taken for one). */
export function cpfValido(digitos: string): boolean {
  if (!/^\d{11}$/.test(digitos) || /^(\d)\1{10}$/.test(digitos)) return false;
  const dv = (ate: number) => {
    let soma = 0;
    for (let i = 0; i < ate; i++) soma += Number(digitos[i]) * (ate + 1 - i);
    const resto = (soma * 10) % 11;
    return resto === 10 ? 0 : resto;
  };
  return dv(9) === Number(digitos[9]) && dv(10) === Number(digitos[10]);
}

const PADROES: Padrao[] = [
  { tipo: 'hash argon2', padrao: /\$argon2(?:id|i|d)\$/g },
  // A JWT's header and payload are JSON objects: base64url of '{"' starts with eyJ.
  { tipo: 'JWT', padrao: /eyJ[\w-]{4,}\.eyJ[\w-]{4,}\.[\w-]{8,}/g },
  // Sino's API keys (and HMACs, SHA-256 digests of tokens) are 64 hex digits.
  { tipo: 'chave de API do Sino', padrao: /(?<!\w)[0-9a-fA-F]{64}(?!\w)/g },
  { tipo: 'e-mail', padrao: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g },
  { tipo: 'CPF', padrao: /(?<!\d)\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)/g },
  // Numbers stand alone: digits inside an id (a UUID's last group, say) are not a CPF.
  { tipo: 'CPF', padrao: /(?<![\w.])\d{11}(?![\w.])/g, confere: cpfValido },
  { tipo: 'telefone', padrao: /\(\d{2}\)\s?9?\d{4}-\d{4}/g },
  // A Brazilian mobile number as stored: area code, then 9 and eight digits.
  { tipo: 'telefone', padrao: /(?<![\w.])[1-9]{2}9\d{8}(?![\w.])/g },
  // Drizzle's message for a failed statement: its SQL text, then its parameters.
  { tipo: 'SQL com parâmetros', padrao: /Failed query|params: /g },
];

const escapar = (texto: string) => texto.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** JSON text escapes some characters (quotes, backslashes): a value is looked for both ways. */
const formas = (valor: string) => [...new Set([valor, JSON.stringify(valor).slice(1, -1)])];

const encurtar = (texto: string) =>
  texto.length <= 8 ? `${texto.slice(0, 2)}…` : `${texto.slice(0, 6)}…(${texto.length})`;

/** The findings in one text (a log file's content); `conhecidos` are registered values. */
export function varrer(
  texto: string,
  conhecidos: readonly { kind: string; value: string }[],
  arquivo = '(texto)',
): Achado[] {
  const padroes = [...PADROES];
  const porValor = new Map<string, string>();
  for (const { kind, value } of conhecidos)
    for (const forma of formas(value)) porValor.set(forma, kind);
  if (porValor.size > 0) {
    // Longest first, so that a value containing another is reported as itself.
    const valores = [...porValor.keys()].sort((a, b) => b.length - a.length);
    // A value stands alone: `12345678` inside a longer id is not that value.
    padroes.push({
      tipo: 'valor registrado',
      padrao: new RegExp(`(?<!\\w)(?:${valores.map(escapar).join('|')})(?!\\w)`, 'g'),
    });
  }
  const inicios = [0];
  for (let i = texto.indexOf('\n'); i >= 0; i = texto.indexOf('\n', i + 1)) inicios.push(i + 1);
  const linhaDe = (posicao: number) => {
    let baixo = 0;
    let alto = inicios.length - 1;
    while (baixo < alto) {
      const meio = (baixo + alto + 1) >> 1;
      if (inicios[meio]! <= posicao) baixo = meio;
      else alto = meio - 1;
    }
    return baixo + 1;
  };

  const achados: Achado[] = [];
  for (const { tipo, padrao, confere } of padroes) {
    for (const m of texto.matchAll(padrao)) {
      if (confere && !confere(m[0])) continue;
      const registrado = porValor.get(m[0]);
      achados.push({
        tipo: tipo === 'valor registrado' && registrado ? `${registrado} (registrado)` : tipo,
        arquivo,
        linha: linhaDe(m.index),
        trecho: encurtar(m[0]),
      });
    }
  }
  return achados.sort((a, b) => a.linha - b.linha);
}

/** Every finding in a run's log folder (`*.log`, with the values of every `*.secrets`). */
export function varrerPasta(pasta: string): Achado[] {
  const arquivos = readdirSync(pasta);
  const conhecidos = arquivos
    .filter((a) => a.endsWith('.secrets'))
    .flatMap((a) =>
      readFileSync(join(pasta, a), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((linha) => JSON.parse(linha) as { kind: string; value: string }),
    );
  return arquivos
    .filter((a) => a.endsWith('.log'))
    .flatMap((a) => varrer(readFileSync(join(pasta, a), 'utf8'), conhecidos, a));
}
