import { useState } from 'react';
import { Campo, CampoSelecao } from '../../../components/Campo';
import { mensagemDoErro } from '../../../lib/api';
import { useClientes, type Cliente } from '../api/referencia';
import { useValorAtrasado } from '../useValorAtrasado';

/**
 * Staff at the counter book for a customer: a search by name or e-mail and the matches to pick
 * from. Nothing picked books for the staff member themself, as the API does.
 */
export function SeletorDeCliente({
  cliente,
  aoEscolher,
  nomeProprio,
}: {
  cliente: Cliente | null;
  aoEscolher: (c: Cliente | null) => void;
  nomeProprio: string;
}) {
  const [busca, setBusca] = useState('');
  const buscaAtrasada = useValorAtrasado(busca.trim(), 400);
  const clientes = useClientes(buscaAtrasada, buscaAtrasada.length >= 2);
  // The one picked stays an option while other searches run.
  const opcoes = [
    ...(cliente ? [cliente] : []),
    ...(clientes.data ?? []).filter((c) => c.id !== cliente?.id),
  ];
  const dica = clientes.isError
    ? mensagemDoErro(clientes.error)
    : buscaAtrasada.length < 2
      ? 'Digite ao menos 2 letras do nome ou do e-mail.'
      : clientes.isFetching
        ? 'Buscando…'
        : `${clientes.data?.length ?? 0} cliente(s) encontrado(s).`;

  return (
    <div className="formulario--grade locacao__cliente">
      <Campo
        rotulo="Buscar cliente"
        type="search"
        autoComplete="off"
        value={busca}
        dica={dica}
        onChange={(e) => setBusca(e.target.value)}
      />
      <CampoSelecao
        rotulo="Reservar para"
        value={cliente ? String(cliente.id) : ''}
        onChange={(e) => aoEscolher(opcoes.find((c) => String(c.id) === e.target.value) ?? null)}
      >
        <option value="">Eu mesmo(a): {nomeProprio}</option>
        {opcoes.map((c) => (
          <option key={c.id} value={c.id}>
            {c.nome} ({c.email})
          </option>
        ))}
      </CampoSelecao>
    </div>
  );
}
