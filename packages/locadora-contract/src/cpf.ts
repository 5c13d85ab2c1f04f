/** Keeps only the digits of a CPF typed with or without punctuation (123.456.789-09). */
export function normalizarCpf(valor: string): string {
  return valor.replace(/\D/g, '');
}

function digitoVerificador(digitos: string, pesoInicial: number): number {
  let soma = 0;
  for (let i = 0; i < digitos.length; i++) soma += Number(digitos[i]) * (pesoInicial - i);
  const resto = (soma * 10) % 11;
  return resto === 10 ? 0 : resto;
}

/** A CPF is 11 digits whose last two are mod-11 check digits; all-same-digit numbers are invalid. */
export function cpfValido(valor: string): boolean {
  const cpf = normalizarCpf(valor);
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  return (
    digitoVerificador(cpf.slice(0, 9), 10) === Number(cpf[9]) &&
    digitoVerificador(cpf.slice(0, 10), 11) === Number(cpf[10])
  );
}

/** 12345678909 -> 123.456.789-09 */
export function formatarCpf(cpf: string): string {
  return normalizarCpf(cpf).replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
}
