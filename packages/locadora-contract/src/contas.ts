import { z } from 'zod';
import { CATEGORIAS_CNH } from './cnh.js';
import { cpf, data, email, telefone, texto } from './campos.js';

const IDADE_MINIMA = 18;

function idadeEm(dataNascimento: string, hoje = new Date()): number {
  const [ano, mes, dia] = dataNascimento.split('-').map(Number) as [number, number, number];
  let idade = hoje.getUTCFullYear() - ano;
  if (hoje.getUTCMonth() + 1 < mes || (hoje.getUTCMonth() + 1 === mes && hoje.getUTCDate() < dia))
    idade--;
  return idade;
}

export const senhaNova = z
  .string({ error: 'Informe a senha.' })
  .min(8, { error: 'A senha deve ter pelo menos 8 caracteres.' })
  .max(128, { error: 'A senha deve ter no máximo 128 caracteres.' });

const categoriaHabilitacao = z
  .string({ error: 'Informe a categoria da habilitação.' })
  .trim()
  .toUpperCase()
  .pipe(
    z.enum(CATEGORIAS_CNH, {
      error: `Categoria da habilitação inválida: use ${CATEGORIAS_CNH.join(', ')}.`,
    }),
  );

/**
 * Sign-up. The spec's misspelt `dataNacimento` is accepted beside `dataNascimento`;
 * the address comes in parts (the spec joined them into one text).
 */
export const cadastroSchema = z
  .object({
    nome: texto('o nome', 120),
    dataNascimento: data('a data de nascimento').optional(),
    dataNacimento: data('a data de nascimento').optional(),
    cpf,
    telefone,
    categoriaHabilitacao,
    rua: texto('a rua', 120),
    numero: texto('o número do endereço', 20),
    bairro: texto('o bairro', 80),
    cidade: texto('a cidade', 80),
    municipio: texto('o município', 80),
    email,
    senha: senhaNova,
    confirmacaoSenha: z.string({ error: 'Repita a senha.' }),
  })
  .superRefine((v, ctx) => {
    const nascimento = v.dataNascimento ?? v.dataNacimento;
    if (!nascimento) {
      ctx.addIssue({
        code: 'custom',
        path: ['dataNascimento'],
        message: 'Informe a data de nascimento.',
      });
    } else if (idadeEm(nascimento) < IDADE_MINIMA) {
      ctx.addIssue({
        code: 'custom',
        path: ['dataNascimento'],
        message: 'É preciso ter 18 anos ou mais para se cadastrar.',
      });
    } else if (idadeEm(nascimento) > 120) {
      ctx.addIssue({
        code: 'custom',
        path: ['dataNascimento'],
        message: 'Data de nascimento inválida.',
      });
    }
    if (v.senha !== v.confirmacaoSenha) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmacaoSenha'],
        message: 'As senhas não conferem.',
      });
    }
  })
  .transform(({ dataNacimento, confirmacaoSenha: _confirmacao, ...v }) => ({
    ...v,
    dataNascimento: (v.dataNascimento ?? dataNacimento) as string,
  }));
export type CadastroEntrada = z.input<typeof cadastroSchema>;
export type Cadastro = z.output<typeof cadastroSchema>;

export const loginSchema = z.object({
  email: z
    .string({ error: 'Informe o e-mail.' })
    .trim()
    .toLowerCase()
    .min(1, { error: 'Informe o e-mail.' })
    .max(254),
  senha: z.string({ error: 'Informe a senha.' }).min(1, { error: 'Informe a senha.' }).max(128),
});
export type Login = z.output<typeof loginSchema>;

/** Profile changes a customer may make; identity fields (CPF, e-mail) stay. */
export const perfilSchema = z
  .object({
    nome: texto('o nome', 120),
    telefone,
    categoriaHabilitacao,
    rua: texto('a rua', 120),
    numero: texto('o número do endereço', 20),
    bairro: texto('o bairro', 80),
    cidade: texto('a cidade', 80),
    municipio: texto('o município', 80),
  })
  .partial();

export const exclusaoContaSchema = z.object({
  senha: z
    .string({ error: 'Confirme com a sua senha.' })
    .min(1, { error: 'Confirme com a sua senha.' })
    .max(128),
});

export const trocaPapelSchema = z.object({
  papel: z.enum(['cliente', 'funcionario', 'admin'], {
    error: 'Papel inválido: use cliente, funcionario ou admin.',
  }),
});

export const usuarioResumoSchema = z.object({
  id: z.number().int(),
  nome: z.string(),
  email: z.string(),
  papel: z.enum(['cliente', 'funcionario', 'admin']),
});

export const sessaoSaidaSchema = usuarioResumoSchema.extend({
  jwtToken: z.string().describe('Access token: send it as `Authorization: Bearer <jwtToken>`'),
  expiraEmSegundos: z.number().int(),
});

export const usuarioSaidaSchema = usuarioResumoSchema.extend({
  dataNascimento: z.string().nullable(),
  cpf: z.string().nullable(),
  telefone: z.string().nullable(),
  categoriaHabilitacao: z.string().nullable(),
  rua: z.string().nullable(),
  numero: z.string().nullable(),
  bairro: z.string().nullable(),
  cidade: z.string().nullable(),
  municipio: z.string().nullable(),
  endereco: z.string().nullable().describe('Address parts joined, as the spec showed it'),
  emailVerificado: z
    .boolean()
    .describe('Whether the e-mail was confirmed: e-mails are sent only to a confirmed address'),
  criadoEm: z.string(),
});

/** The link's token, from the e-mail (`/verificar-email?token=...`). */
export const verificacaoDeEmailSchema = z.object({
  token: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,200}$/, { error: 'Link de confirmação inválido.' }),
});
export type VerificacaoDeEmail = z.infer<typeof verificacaoDeEmailSchema>;
export type UsuarioSaida = z.infer<typeof usuarioSaidaSchema>;
