import { calcularOrcamento, reaisParaCentavos, type Orcamento } from '@locadora/contract/preco';
import { MAXIMO_DIARIAS } from '@locadora/contract/locacoes';

const DATA = /^\d{4}-\d{2}-\d{2}$/;
const HORA = /^\d{2}:\d{2}$/;

export interface Periodo {
  data_retirada: string;
  hora_retirada: string;
  data_entrega: string;
  hora_entrega: string;
}

/** Whether the period is one the server would price (return after pickup, within the limit). */
export function periodoValido(p: Periodo): boolean {
  if (![p.data_retirada, p.data_entrega].every((d) => DATA.test(d))) return false;
  if (![p.hora_retirada, p.hora_entrega].every((h) => HORA.test(h))) return false;
  return `${p.data_entrega}T${p.hora_entrega}` > `${p.data_retirada}T${p.hora_retirada}`;
}

/**
 * The browser's "Calcular Total", with the server's own rule (the contract's calcularOrcamento):
 * category daily value x days + the extra. Null while the form does not yet say enough.
 */
export function orcamentoDoFormulario(
  periodo: Periodo,
  valorDiaria: number | undefined,
  valorAdicional: number,
): (Orcamento & { acimaDoLimite: boolean }) | null {
  if (valorDiaria === undefined || !periodoValido(periodo)) return null;
  const orcamento = calcularOrcamento({
    dataRetirada: periodo.data_retirada,
    dataEntrega: periodo.data_entrega,
    valorDiariaCentavos: reaisParaCentavos(valorDiaria),
    valorAdicionalCentavos: reaisParaCentavos(valorAdicional),
  });
  return { ...orcamento, acimaDoLimite: orcamento.diarias > MAXIMO_DIARIAS };
}
