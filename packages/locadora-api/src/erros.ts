/**
 * Business errors raised by services. They carry the HTTP status the API answers with, but
 * services stay free of Fastify: the plugin's error handler turns them into responses.
 */
export class ErroLocadora extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 429 | 503,
    message: string,
    readonly campo?: string,
  ) {
    super(message);
    this.name = 'ErroLocadora';
  }
}

export const naoEncontrado = (oque = 'Registro') =>
  new ErroLocadora(404, `${oque} não encontrado.`);
export const naoEncontrada = (oque: string) => new ErroLocadora(404, `${oque} não encontrada.`);
export const proibido = (mensagem = 'Você não tem permissão para acessar este registro.') =>
  new ErroLocadora(403, mensagem);
export const conflito = (mensagem: string, campo?: string) =>
  new ErroLocadora(409, mensagem, campo);
export const entradaInvalida = (campo: string, mensagem: string) =>
  new ErroLocadora(400, mensagem, campo);
export const naoAutenticado = (mensagem = 'Faça login para continuar.') =>
  new ErroLocadora(401, mensagem);
