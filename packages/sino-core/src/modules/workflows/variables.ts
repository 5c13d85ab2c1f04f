import Handlebars from 'handlebars';

export interface TriggerVariable {
  name: string;
  type: 'String' | 'Array' | 'Boolean';
}

// Roots the engine fills itself: not something the trigger's payload has to carry.
const RESERVED_ROOTS: ReadonlySet<string> = new Set([
  'subscriber',
  'step',
  'branding',
  'tenant',
  'actor',
  'this',
]);

type Node = { type: string } & Record<string, unknown>;
type Path = { type: 'PathExpression'; original: string; data: boolean; depth: number };

const isPath = (n: unknown): n is Path =>
  typeof n === 'object' && n !== null && (n as Node).type === 'PathExpression';

/**
 * The payload variables a workflow's content uses (Novu's `triggers[0].variables`): every path
 * read by a mustache or passed to a helper, with `each` lists as arrays and `if`/`unless`
 * conditions as booleans. Content that does not parse contributes nothing (the engine reports
 * its syntax error when it renders it).
 */
export function triggerVariables(
  texts: readonly string[],
  /** Roots left out; a preview lists `subscriber.*` and the like too (only `this` left out). */
  reserved: ReadonlySet<string> = RESERVED_ROOTS,
): TriggerVariable[] {
  const found = new Map<string, TriggerVariable['type']>();
  const note = (node: unknown, type: TriggerVariable['type'] = 'String') => {
    if (!isPath(node) || node.data || node.depth > 0) return;
    const name = node.original.replace(/^\.\//, '');
    const root = name.split(/[.[]/)[0] ?? '';
    if (!root || reserved.has(root)) return;
    // A list or a condition says more about the variable than a plain read.
    if (!found.has(name) || type !== 'String') found.set(name, type);
  };
  const args = (n: Node) => {
    for (const p of (n.params as unknown[]) ?? []) expression(p);
    const pairs = (n.hash as { pairs?: { value: unknown }[] } | undefined)?.pairs ?? [];
    for (const pair of pairs) expression(pair.value);
  };
  const expression = (e: unknown) => {
    if (isPath(e)) note(e);
    else if (typeof e === 'object' && e !== null && (e as Node).type === 'SubExpression') {
      args(e as Node);
    }
  };
  const program = (p: unknown) => {
    for (const s of ((p as { body?: Node[] } | null)?.body ?? []) as Node[]) statement(s);
  };
  const statement = (s: Node) => {
    if (s.type === 'MustacheStatement') {
      const hasArgs = ((s.params as unknown[]) ?? []).length > 0 || s.hash;
      if (hasArgs) args(s);
      else note(s.path);
    } else if (s.type === 'BlockStatement') {
      const helper = isPath(s.path) ? s.path.original : '';
      const [first] = (s.params as unknown[]) ?? [];
      if (helper === 'each' || helper === 'with') {
        // Inside, paths are relative to each item: only the list itself is the payload's (or
        // what a helper makes it from: `{{#each (sortBy items 'n')}}`).
        if (isPath(first)) note(first, helper === 'each' ? 'Array' : 'String');
        else expression(first);
        program(s.inverse);
        return;
      }
      if (helper === 'if' || helper === 'unless') note(first, 'Boolean');
      else args(s);
      program(s.program);
      program(s.inverse);
    }
  };
  for (const text of texts) {
    if (!text || !text.includes('{{')) continue;
    try {
      program(Handlebars.parse(text));
    } catch {
      // Not valid Handlebars: no variables can be read from it.
    }
  }
  return [...found].map(([name, type]) => ({ name, type }));
}
