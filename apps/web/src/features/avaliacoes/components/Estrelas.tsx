import { useId, useState } from 'react';
import type { Ref } from 'react';

const NOTAS = [1, 2, 3, 4, 5] as const;

export const nomeDaNota = (n: number): string => (n === 1 ? '1 estrela' : `${n} estrelas`);

function Estrela({ cheia }: { cheia: boolean }) {
  return (
    <svg viewBox="0 0 24 24" className={cheia ? 'estrela estrela--cheia' : 'estrela'} aria-hidden>
      <path d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z" />
    </svg>
  );
}

/**
 * The grade as five native radio buttons drawn as stars: the browser gives the group its arrow
 * keys and one tab stop, and each star keeps its own name ('3 estrelas') for screen readers.
 */
export function EscolhaDeEstrelas({
  rotulo,
  valor,
  aoMudar,
  aoSair,
  erro,
  ref,
}: {
  rotulo: string;
  valor: number | undefined;
  aoMudar: (nota: number) => void;
  aoSair?: () => void;
  erro?: string | undefined;
  ref?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const [sobre, setSobre] = useState<number | null>(null);
  const realce = sobre ?? valor ?? 0;
  const idErro = `${id}-erro`;
  return (
    <fieldset className="estrelas" aria-describedby={erro ? idErro : undefined}>
      <legend>{rotulo}</legend>
      <div className="estrelas__opcoes" onMouseLeave={() => setSobre(null)}>
        {NOTAS.map((n) => (
          <label key={n} className="estrelas__opcao" onMouseEnter={() => setSobre(n)}>
            <input
              type="radio"
              name={`${id}-nota`}
              value={n}
              checked={valor === n}
              onChange={() => aoMudar(n)}
              onBlur={aoSair}
              // The form focuses the first star when the grade is missing.
              ref={n === 1 ? ref : undefined}
              aria-invalid={erro ? true : undefined}
              aria-describedby={erro ? idErro : undefined}
              className="visualmente-oculto"
            />
            <Estrela cheia={n <= realce} />
            <span className="visualmente-oculto">{nomeDaNota(n)}</span>
          </label>
        ))}
        <span className="estrelas__texto" aria-hidden>
          {valor ? `${valor} de 5` : 'Sem nota'}
        </span>
      </div>
      {erro && (
        <span id={idErro} className="campo__erro">
          {erro}
        </span>
      )}
    </fieldset>
  );
}

/** A grade shown as stars, read as '4 de 5 estrelas'. */
export function NotaEmEstrelas({ nota }: { nota: number }) {
  return (
    <span className="nota" role="img" aria-label={`${nota} de 5 estrelas`}>
      {NOTAS.map((n) => (
        <Estrela key={n} cheia={n <= nota} />
      ))}
    </span>
  );
}
