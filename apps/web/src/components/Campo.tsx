import { useId } from 'react';
import type {
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from 'react';

// Labelled form fields whose error is announced with the field (aria-invalid + aria-describedby).

interface Base {
  rotulo: string;
  erro?: string | undefined;
  dica?: ReactNode;
}

function useIds(erro: string | undefined, dica: ReactNode) {
  const id = useId();
  const idErro = `${id}-erro`;
  const idDica = `${id}-dica`;
  const descritoPor = [dica ? idDica : null, erro ? idErro : null].filter(Boolean).join(' ');
  return { id, idErro, idDica, descritoPor: descritoPor || undefined };
}

function Rodape({ erro, dica, idErro, idDica }: Base & { idErro: string; idDica: string }) {
  return (
    <>
      {dica && (
        <span id={idDica} className="campo__dica">
          {dica}
        </span>
      )}
      {erro && (
        <span id={idErro} className="campo__erro">
          {erro}
        </span>
      )}
    </>
  );
}

export function Campo({
  rotulo,
  erro,
  dica,
  ref,
  ...input
}: Base & InputHTMLAttributes<HTMLInputElement> & { ref?: React.Ref<HTMLInputElement> }) {
  const ids = useIds(erro, dica);
  return (
    <div className="campo">
      <label htmlFor={ids.id}>{rotulo}</label>
      <input
        id={ids.id}
        ref={ref}
        aria-invalid={erro ? true : undefined}
        aria-describedby={ids.descritoPor}
        {...input}
      />
      <Rodape erro={erro} dica={dica} idErro={ids.idErro} idDica={ids.idDica} rotulo={rotulo} />
    </div>
  );
}

export function CampoSelecao({
  rotulo,
  erro,
  dica,
  ref,
  children,
  ...select
}: Base & SelectHTMLAttributes<HTMLSelectElement> & { ref?: React.Ref<HTMLSelectElement> }) {
  const ids = useIds(erro, dica);
  return (
    <div className="campo">
      <label htmlFor={ids.id}>{rotulo}</label>
      <select
        id={ids.id}
        ref={ref}
        aria-invalid={erro ? true : undefined}
        aria-describedby={ids.descritoPor}
        {...select}
      >
        {children}
      </select>
      <Rodape erro={erro} dica={dica} idErro={ids.idErro} idDica={ids.idDica} rotulo={rotulo} />
    </div>
  );
}

export function CampoTextoLongo({
  rotulo,
  erro,
  dica,
  ref,
  ...textarea
}: Base & TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: React.Ref<HTMLTextAreaElement> }) {
  const ids = useIds(erro, dica);
  return (
    <div className="campo">
      <label htmlFor={ids.id}>{rotulo}</label>
      <textarea
        id={ids.id}
        ref={ref}
        rows={3}
        aria-invalid={erro ? true : undefined}
        aria-describedby={ids.descritoPor}
        {...textarea}
      />
      <Rodape erro={erro} dica={dica} idErro={ids.idErro} idDica={ids.idDica} rotulo={rotulo} />
    </div>
  );
}

export function CampoMarcacao({
  rotulo,
  erro,
  ref,
  ...input
}: Base & InputHTMLAttributes<HTMLInputElement> & { ref?: React.Ref<HTMLInputElement> }) {
  const ids = useIds(erro, undefined);
  return (
    <div className="campo campo--marcacao">
      <input
        id={ids.id}
        ref={ref}
        type="checkbox"
        aria-invalid={erro ? true : undefined}
        aria-describedby={ids.descritoPor}
        {...input}
      />
      <label htmlFor={ids.id}>{rotulo}</label>
      <Rodape erro={erro} idErro={ids.idErro} idDica={ids.idDica} rotulo={rotulo} />
    </div>
  );
}
