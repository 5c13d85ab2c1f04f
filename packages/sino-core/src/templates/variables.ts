import { compileTemplate, helperNames, TEMPLATE_ROOTS } from './render.js';

/**
 * Which payload variables a template uses but the payload lacks (execution code 3011).
 *
 * The template's syntax tree is walked, tracking the context the way Handlebars 4 does:
 * `{{#each}}`, `{{#with}}` and sections over a variable (`{{#items}}`) render their body over
 * another object, so names inside are not payload names and are not checked, unless they climb
 * back to the top with `../` or `@root.`. `{{#if}}`, `{{#unless}}` and `{{#equals}}` keep the
 * context, so their bodies are checked. Helper names, `@index`-style data, block parameters and
 * the service's roots (`subscriber`, `step`, `branding`, `tenant`) are not payload variables.
 *
 * A variable is missing when some segment of its path does not resolve: `{{order.total}}` is
 * missing both when `order` is absent and when `order` has no `total`. A `null` value is
 * present (the caller sent it on purpose). Throws `TemplateSyntaxError` like rendering does.
 */
export function missingPayloadVariables(
  source: string,
  payload: Record<string, unknown>,
  roots: readonly string[] = TEMPLATE_ROOTS,
): string[] {
  if (source === '') return [];
  const { ast } = compileTemplate(source);
  const helpers = helperNames();
  const missing = new Set<string>();

  // `depth` counts the context changes around a node; `blockParams` the names in scope.
  interface Scope {
    depth: number;
    blockParams: readonly string[];
  }

  function check(path: hbs.AST.PathExpression, scope: Scope): void {
    let parts = path.parts;
    if (path.data) {
      // @root.x climbs to the top; @index, @key, @first... are loop data, not payload.
      if (parts[0] !== 'root') return;
      parts = parts.slice(1);
    } else {
      if (scope.depth - path.depth !== 0) return;
      if (path.depth === 0 && parts[0] !== undefined && scope.blockParams.includes(parts[0])) {
        return;
      }
    }
    const head = parts[0];
    if (head === undefined || roots.includes(head)) return;
    if (!resolves(payload, parts)) missing.add(parts.join('.'));
  }

  function expression(node: hbs.AST.Expression, scope: Scope): void {
    if (node.type === 'PathExpression') check(node as hbs.AST.PathExpression, scope);
    else if (node.type === 'SubExpression') call(node as hbs.AST.SubExpression, scope);
  }

  /** A mustache, block or sub-expression: its path is a helper or a variable, then its args. */
  function call(
    node: hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression,
    scope: Scope,
  ): void {
    const hasArgs = node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0;
    const path = node.path;
    let isHelper = hasArgs || node.type === 'SubExpression';
    if (path.type === 'PathExpression') {
      const p = path as hbs.AST.PathExpression;
      const simple = !p.data && p.depth === 0 && p.parts.length === 1;
      if (simple && helpers.has(p.parts[0]!)) isHelper = true;
      if (!isHelper) check(p, scope);
    }
    for (const param of node.params) expression(param, scope);
    for (const pair of node.hash?.pairs ?? []) expression(pair.value, scope);
  }

  // Helpers whose block renders over the same context (`equals` calls `options.fn(this)`).
  const SAME_CONTEXT = new Set(['if', 'unless', 'equals']);

  function statements(program: hbs.AST.Program | undefined, scope: Scope): void {
    for (const node of program?.body ?? []) {
      switch (node.type) {
        case 'MustacheStatement':
          call(node as hbs.AST.MustacheStatement, scope);
          break;
        case 'BlockStatement': {
          const block = node as hbs.AST.BlockStatement;
          call(block, scope);
          const name =
            block.path.type === 'PathExpression' && block.path.parts.length === 1
              ? block.path.parts[0]!
              : '';
          const inner: Scope = SAME_CONTEXT.has(name)
            ? scope
            : { depth: scope.depth + 1, blockParams: scope.blockParams };
          const params = block.program?.blockParams ?? [];
          statements(
            block.program,
            params.length > 0
              ? { depth: inner.depth, blockParams: [...inner.blockParams, ...params] }
              : inner,
          );
          // `{{else}}` renders over the outer context for every built-in helper.
          statements(block.inverse, scope);
          break;
        }
        case 'PartialStatement':
        case 'PartialBlockStatement': {
          const partial = node as hbs.AST.PartialStatement;
          for (const param of partial.params) expression(param, scope);
          for (const pair of partial.hash?.pairs ?? []) expression(pair.value, scope);
          break;
        }
        default:
          // Content, comments and decorators reference no variable.
          break;
      }
    }
  }

  statements(ast, { depth: 0, blockParams: [] });
  return [...missing];
}

/** Whether every segment of `parts` exists, the way Handlebars looks up own properties. */
function resolves(root: unknown, parts: readonly string[]): boolean {
  let current = root;
  for (const part of parts) {
    if (current === null || current === undefined) return false;
    const holder = Object(current) as Record<string, unknown>;
    if (!Object.hasOwn(holder, part)) return false;
    current = holder[part];
  }
  return current !== undefined;
}
