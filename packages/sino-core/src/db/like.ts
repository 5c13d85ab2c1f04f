/**
 * A `LIKE`/`ILIKE` pattern that finds `text` anywhere: its own `%`, `_` and `\` are escaped
 * (PostgreSQL's default escape character), so what a person types is matched as typed.
 */
export const containsPattern = (text: string): string =>
  `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
