// Reference data of the spec (places, categories, models with daily values, extras) and a fleet.

export const LOCAIS = [
  {
    codigo: '001',
    nome: 'Loja Centro',
    endereco: 'Av. Afonso Pena, 1.000',
    bairro: 'Centro',
    cidade: 'Belo Horizonte',
    uf: 'MG',
    // Approximate coordinates of the street number, enough for a map marker.
    latitude: -19.9226,
    longitude: -43.9376,
  },
  {
    codigo: '002',
    nome: 'Loja Pampulha',
    endereco: 'Av. Antônio Carlos, 1.001',
    bairro: 'Pampulha',
    cidade: 'Belo Horizonte',
    uf: 'MG',
    latitude: -19.8995,
    longitude: -43.9428,
  },
] as const;

export const CATEGORIAS = [
  { descricao: "SUV's", valorDiariaCentavos: 20_000 },
  { descricao: 'Sedans', valorDiariaCentavos: 7_000 },
  { descricao: 'Hatches', valorDiariaCentavos: 5_000 },
  { descricao: 'Premium', valorDiariaCentavos: 27_000 },
] as const;

export const MODELOS = [
  { nome: 'Gol', marca: 'Volkswagen', categoria: 'Hatches' },
  { nome: 'Onix', marca: 'Chevrolet', categoria: 'Hatches' },
  { nome: 'HB20', marca: 'Hyundai', categoria: 'Hatches' },
  { nome: 'Ka', marca: 'Ford', categoria: 'Hatches' },
  { nome: 'Prisma', marca: 'Chevrolet', categoria: 'Sedans' },
  { nome: 'HB20S', marca: 'Hyundai', categoria: 'Sedans' },
  { nome: 'Corolla', marca: 'Toyota', categoria: 'Premium' },
  { nome: 'Civic', marca: 'Honda', categoria: 'Premium' },
  { nome: 'T-Cross', marca: 'Volkswagen', categoria: "SUV's" },
  { nome: 'Renegade', marca: 'Jeep', categoria: "SUV's" },
] as const;

export const ADICIONAIS = [
  { descricao: 'Nenhum', valorCentavos: 0 },
  { descricao: 'Proteção de vidros', valorCentavos: 49_900 },
  { descricao: 'Cadeirinha infantil', valorCentavos: 24_900 },
  { descricao: 'GPS', valorCentavos: 9_900 },
] as const;

const CORES = ['Branco', 'Prata', 'Preto'] as const;

/** Three vehicles per model, one of each colour, with Mercosul plates (two per model) and one old plate. */
export function frotaInicial(): {
  placa: string;
  modelo: string;
  cor: string;
  quilometragem: number;
}[] {
  return MODELOS.flatMap((m, i) =>
    CORES.map((cor, j) => {
      const n = i * 3 + j;
      const letra = String.fromCharCode(65 + (n % 26));
      const placa =
        j === 2
          ? `QW${letra}-${String(1000 + n * 37).slice(-4)}`
          : `RT${letra}${n % 10}${letra}${String(10 + n).slice(-2)}`;
      return {
        placa: placa.replace('-', ''),
        modelo: m.nome,
        cor,
        quilometragem: 5_000 + n * 1_250,
      };
    }),
  );
}

export const ESTOQUES = MODELOS.flatMap((m) =>
  CORES.map((cor, j) => ({
    modelo: m.nome,
    marca: m.marca,
    cor,
    quantidade: 1 + ((m.nome.length + j) % 4),
  })),
);

/** Demo accounts, one per role; their passwords are in the README. Off with SEED_DEMO_ACCOUNTS=false. */
export const CONTAS_DEMO = [
  {
    nome: 'Cliente Demonstração',
    email: 'cliente@locadora.dev',
    senha: 'Cliente@2026',
    papel: 'cliente',
    cpf: '52998224725',
    dataNascimento: '1990-04-12',
    telefone: '31988887777',
    categoriaHabilitacao: 'B',
  },
  {
    nome: 'Funcionária Demonstração',
    email: 'funcionario@locadora.dev',
    senha: 'Funcionario@2026',
    papel: 'funcionario',
    cpf: '11144477735',
    dataNascimento: '1985-09-30',
    telefone: '31977776666',
    categoriaHabilitacao: 'AB',
  },
  {
    nome: 'Administrador Demonstração',
    email: 'admin@locadora.dev',
    senha: 'Admin@2026',
    papel: 'admin',
    cpf: '93541134780',
    dataNascimento: '1980-01-15',
    telefone: '31966665555',
    categoriaHabilitacao: 'B',
  },
] as const;
