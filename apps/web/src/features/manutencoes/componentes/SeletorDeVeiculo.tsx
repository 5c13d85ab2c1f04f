import type { ComponentProps } from 'react';
import { CampoSelecao } from '../../../components/Campo';
import { porCategoria, rotuloDoVeiculo, type Veiculo } from '../api/veiculos';

/**
 * The vehicle as staff know it (plate, make, model, colour), grouped by category; the value is
 * the id the API expects. Typing the first letters of a plate jumps to it.
 */
export function SeletorDeVeiculo({
  veiculos,
  vazio = 'Selecione o veículo',
  ...campo
}: ComponentProps<typeof CampoSelecao> & { veiculos: readonly Veiculo[]; vazio?: string }) {
  return (
    <CampoSelecao {...campo}>
      <option value="">{vazio}</option>
      {porCategoria(veiculos).map(([categoria, lista]) => (
        <optgroup key={categoria} label={categoria}>
          {lista.map((v) => (
            <option key={v.id_veiculo} value={String(v.id_veiculo)}>
              {rotuloDoVeiculo(v)}
            </option>
          ))}
        </optgroup>
      ))}
    </CampoSelecao>
  );
}
