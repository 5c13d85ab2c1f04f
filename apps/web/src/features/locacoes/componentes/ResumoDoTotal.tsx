import type { Cotacao } from '../api/locacoes';
import { formatarReais } from '../../../lib/formatos';

export interface ValoresDoTotal {
  diarias: number;
  valorDiaria: number;
  adicional: string;
  valorAdicional: number;
  total: number;
}

const plural = (n: number, um: string, varios: string) => (n === 1 ? um : varios);

/**
 * The price of the form as it is now (computed in the browser with the server's rule) and,
 * after "Calcular Total", the server's confirmation with how many vehicles are still free.
 */
export function ResumoDoTotal({
  valores,
  titulo,
  aviso,
  datasConflitantes,
  confirmacao,
  calculando,
  edicao,
}: {
  /**
   * Changing a reservation: the server's quote counts the reservation itself as taking a
   * vehicle, so its availability figure would be one short; saving checks it properly.
   */
  edicao: boolean;
  valores: ValoresDoTotal | null;
  /** Both dates typed, but the return is not after the pickup. */
  datasConflitantes: boolean;
  titulo: string;
  aviso?: string | undefined;
  confirmacao: Cotacao | null;
  calculando: boolean;
}) {
  const semVeiculo = !edicao && confirmacao !== null && confirmacao.disponiveis < 1;
  return (
    <section className="locacao__total" aria-labelledby="titulo-total-da-locacao">
      <h3 id="titulo-total-da-locacao">{titulo}</h3>
      {valores ? (
        <dl className="dados locacao__valores">
          <dt>Diárias</dt>
          <dd>{valores.diarias}</dd>
          <dt>Valor da diária</dt>
          <dd>{formatarReais(valores.valorDiaria)}</dd>
          <dt>Adicional ({valores.adicional})</dt>
          <dd>{formatarReais(valores.valorAdicional)}</dd>
          <dt>Total</dt>
          <dd className="locacao__valor-total" data-testid="total-da-locacao">
            {formatarReais(valores.total)}
          </dd>
        </dl>
      ) : (
        <p className="locacao__total-vazio">
          {datasConflitantes
            ? 'Confira as datas: a entrega deve ser depois da retirada.'
            : 'Escolha a categoria e as datas de retirada e de entrega para ver o total.'}
        </p>
      )}
      {aviso && <p className="campo__erro">{aviso}</p>}
      {/* Always in the page, so what "Calcular Total" answers is announced when it arrives. */}
      <div
        role="status"
        className={
          semVeiculo ? 'locacao__confirmacao locacao__confirmacao--sem' : 'locacao__confirmacao'
        }
      >
        {calculando && 'Calculando…'}
        {!calculando && confirmacao && !semVeiculo && (
          <>
            Total confirmado: {formatarReais(confirmacao.vl_total)} por {confirmacao.diarias}{' '}
            {plural(confirmacao.diarias, 'diária', 'diárias')}.{' '}
            {edicao
              ? 'A disponibilidade é conferida ao salvar.'
              : `${confirmacao.disponiveis} ${plural(confirmacao.disponiveis, 'veículo disponível', 'veículos disponíveis')} nesta categoria para o período.`}
          </>
        )}
        {!calculando && semVeiculo && (
          <>
            Não há veículo disponível nesta categoria para o período escolhido. Escolha outra
            categoria ou outras datas.
          </>
        )}
      </div>
    </section>
  );
}
