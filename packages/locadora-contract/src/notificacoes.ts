/**
 * Locadora's notification workflows in Sino carry who receives them as a tag: the ones only
 * staff receive (a review published) are tagged `somente-equipe`. A customer's bell leaves
 * their preferences out (it would never get them); staff see every workflow, since an
 * employee may also book, and be fined, as a customer.
 */
export const TAG_SOMENTE_EQUIPE = 'somente-equipe';

/** Whether a workflow with these tags belongs in the bell's preferences of an account of `papel`. */
export function fluxoDoPapel(
  papel: 'cliente' | 'funcionario' | 'admin',
  tags: readonly string[] = [],
): boolean {
  return papel !== 'cliente' || !tags.includes(TAG_SOMENTE_EQUIPE);
}
