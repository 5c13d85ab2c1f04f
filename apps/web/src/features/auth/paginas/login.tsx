import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { mensagemDoErro } from '../../../lib/api';
import { useSessao } from '../../../lib/sessao';
import { Campo } from '../../../components/Campo';
import { Alerta, Carregando } from '../../../components/Estados';

interface EstadoDeNavegacao {
  de?: string;
  motivo?: 'expirada' | 'saiu';
  cadastrado?: string;
}

export default function PaginaLogin() {
  const { estado, entrar } = useSessao();
  const navegar = useNavigate();
  const local = useLocation();
  const vindoDe = (local.state ?? {}) as EstadoDeNavegacao;
  const [email, setEmail] = useState(vindoDe.cadastrado ?? '');
  const [senha, setSenha] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);

  useEffect(() => {
    document.title = 'Entrar · Locadora';
  }, []);

  if (estado.status === 'carregando') return <Carregando texto="Verificando sua sessão…" />;
  if (estado.status === 'autenticado' && !enviando)
    return <Navigate to={vindoDe.de ?? paths.home.caminho} replace />;

  async function enviar(evento: FormEvent) {
    evento.preventDefault();
    if (!email.trim() || !senha) {
      setErro('Atenção, por favor preencher todos os campos!');
      return;
    }
    setErro(null);
    setEnviando(true);
    try {
      await entrar(email.trim(), senha);
      navegar(vindoDe.de ?? paths.home.caminho, { replace: true });
    } catch (e) {
      setErro(mensagemDoErro(e));
      setEnviando(false);
    }
  }

  return (
    <div className="entrada">
      <main className="entrada__cartao" id="conteudo">
        <h1>Locadora</h1>
        <p className="entrada__subtitulo">Entre para reservar e acompanhar suas locações.</p>
        {vindoDe.motivo === 'expirada' && (
          <Alerta tipo="info">Sua sessão expirou. Entre novamente para continuar.</Alerta>
        )}
        {vindoDe.cadastrado && (
          <Alerta tipo="sucesso">
            Cadastro realizado! Entre com seu e-mail e senha. Enviamos a {vindoDe.cadastrado} um
            link para confirmar o endereço.
          </Alerta>
        )}
        {erro && <Alerta tipo="erro">{erro}</Alerta>}
        <form onSubmit={enviar} noValidate className="formulario">
          <Campo
            rotulo="E-mail"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Campo
            rotulo="Senha"
            type="password"
            autoComplete="current-password"
            value={senha}
            onChange={(e) => setSenha(e.target.value)}
          />
          <button type="submit" className="botao botao--largo" disabled={enviando}>
            {enviando ? 'Entrando…' : 'Entrar'}
          </button>
        </form>
        <p>
          Ainda não tem conta? <Link to={paths.cadastro.caminho}>Cadastre-se</Link>
        </p>
      </main>
      <footer className="rodape">
        © {new Date().getFullYear()} Locadora. Todos os direitos reservados.
      </footer>
    </div>
  );
}
