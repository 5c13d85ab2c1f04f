import type { SinoBody, SinoClient } from '@sino/client';
import { garantirVersionados, recusa, type Acao, type Versionador } from './versionados.js';

/** Locadora's e-mail layout in Sino, by its identifier (stable across environments). */
export const IDENTIFICADOR_DO_LAYOUT = 'locadora';

type Layout = SinoBody<'/v1/layouts', 'post'>;

/** The palette of apps/web (estilos.css): the e-mails look like the app. */
const CORES = {
  primaria: '#0a4fd6',
  texto: '#1b2430',
  textoSuave: '#4a5668',
  borda: '#c9d2de',
  fundo: '#f4f6fa',
  superficie: '#ffffff',
} as const;
const FONTE = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** Text for an HTML attribute or element: the configured address is not trusted as markup. */
export function escaparHtml(texto: string): string {
  return texto.replace(
    /[&<>"'`={}]/g,
    (c) => `&#${c.codePointAt(0)};`, // `{` and `}` too: Handlebars must not read them
  );
}

/**
 * The layout, in Portuguese, with the address of the notification preferences (built from the
 * public URL, baked in: the definition's version changes with it). `{{{body}}}` is the step's
 * content, rendered (and escaped) by Sino before it is placed here.
 */
export function layoutDaLocadora(urlPublica: string): Layout {
  const preferencias = escaparHtml(`${urlPublica}/notificacoes`);
  const inicio = escaparHtml(`${urlPublica}/`);
  return {
    name: 'Locadora',
    identifier: IDENTIFICADOR_DO_LAYOUT,
    description:
      'Layout dos e-mails da Locadora: marca, cores do app e rodapé com as preferências.',
    content: `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{subject}}</title></head>
<body style="margin:0;padding:0;background:${CORES.fundo};font-family:${FONTE};color:${CORES.texto};">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${CORES.fundo};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;">
<tr><td style="padding:0 0 16px 0;"><a href="${inicio}" style="color:${CORES.primaria};font-size:24px;font-weight:700;text-decoration:none;">Locadora</a></td></tr>
<tr><td style="background:${CORES.superficie};border:1px solid ${CORES.borda};border-top:4px solid ${CORES.primaria};border-radius:8px;padding:24px;font-size:16px;line-height:1.5;">
{{{body}}}
</td></tr>
<tr><td style="padding:16px 4px;font-size:13px;line-height:1.5;color:${CORES.textoSuave};">
Você recebe este e-mail porque este endereço está cadastrado em uma conta da Locadora, e ele trata da sua conta, de uma reserva, locação ou multa sua.
Para escolher quais avisos receber por e-mail, acesse as <a href="${preferencias}" style="color:${CORES.primaria};">preferências de notificação</a>.
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`,
  };
}

/** Where the layout's description keeps the version Locadora wrote. */
const MARCA_DA_VERSAO = /\[versaoDaLocadora:([0-9a-f]+)\]$/;
const comVersao = (layout: Layout, versao: string): Layout => ({
  ...layout,
  description: `${layout.description ?? ''} [versaoDaLocadora:${versao}]`.trim(),
});

type Existente = { _id: string; description?: string | undefined };

/**
 * Writes Locadora's layout to Sino the versioned way (`versionados.ts`): created when absent,
 * rewritten when the code's version changes. Layouts have no free `data` as workflows do, so
 * the version is kept at the end of the description. Answers its id, which the e-mail steps
 * name, and what was done.
 */
export async function garantirLayout(
  sino: SinoClient,
  layout: Layout,
): Promise<{ id: string; acao: Acao }> {
  const versionador: Versionador<Layout, Existente> = {
    chave: (l) => l.identifier,
    async existentes() {
      const porChave = new Map<string, Existente>();
      for (let page = 0; ; page++) {
        const lista = await sino.GET('/v1/layouts', {
          params: { query: { page, pageSize: 100 } },
        });
        if (!lista.data) throw recusa('ler os layouts da Locadora', lista);
        for (const l of lista.data.data)
          if (!l.isDeleted) porChave.set(l.identifier, { _id: l._id, description: l.description });
        if (lista.data.data.length < 100) break;
      }
      return porChave;
    },
    versaoDoExistente: (e) => MARCA_DA_VERSAO.exec(e.description ?? '')?.[1],
    idDoExistente: (e) => e._id,
    async criar(l, versao) {
      const criado = await sino.POST('/v1/layouts', { body: comVersao(l, versao) });
      if (!criado.data) throw recusa(`criar o layout ${l.identifier}`, criado);
      return criado.data.data._id;
    },
    async atualizar(e, l, versao) {
      const { identifier: _mesmo, isDefault: _padrao, ...campos } = comVersao(l, versao);
      const atualizado = await sino.PATCH('/v1/layouts/{layoutId}', {
        params: { path: { layoutId: e._id } },
        body: campos,
      });
      if (!atualizado.response.ok) throw recusa(`atualizar o layout ${l.identifier}`, atualizado);
      return e._id;
    },
  };
  const [r] = await garantirVersionados([layout], versionador);
  return { id: r!.id, acao: r!.acao };
}
