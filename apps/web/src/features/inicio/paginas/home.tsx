import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { ehEquipe, useUsuario } from '../../../lib/sessao';
import { Pagina } from '../../../components/Pagina';

/** /home2: the spec's two shortcuts (rent, follow inspections), by role. */
export default function PaginaInicial() {
  const usuario = useUsuario();
  const primeiroNome = usuario.nome.split(' ')[0];
  return (
    <Pagina titulo={`Olá, ${primeiroNome}!`} descricao="O que você quer fazer hoje?">
      <div className="atalhos">
        <Link to={paths.locacao.caminho} className="cartao atalho">
          <h2>Alugar veículos</h2>
          <p>Reserve por categoria, veja o total e acompanhe suas reservas.</p>
        </Link>
        {ehEquipe(usuario) ? (
          <Link to={paths.vistoria2.caminho} className="cartao atalho">
            <h2>Acompanhar vistorias</h2>
            <p>Consulte, edite e registre vistorias de saída e de devolução.</p>
          </Link>
        ) : (
          <Link to={paths.historico.caminho} className="cartao atalho">
            <h2>Acompanhar locações</h2>
            <p>Consulte o histórico e as infrações dos seus contratos.</p>
          </Link>
        )}
      </div>
    </Pagina>
  );
}
