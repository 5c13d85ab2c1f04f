import { getTableColumns, type Table } from 'drizzle-orm';

/**
 * Maps rows of raw SQL (snake_case column names, driver values) to the shape Drizzle's own
 * select answers for `table`: the set statements are raw SQL, their callers expect typed rows.
 */
export function rowMapper<T extends Table>(
  table: T,
): (row: Record<string, unknown>) => T['$inferSelect'] {
  const columns = Object.entries(getTableColumns(table));
  return (row) =>
    Object.fromEntries(
      columns.map(([key, column]) => {
        const value = row[column.name];
        return [
          key,
          value === null || value === undefined ? null : column.mapFromDriverValue(value),
        ];
      }),
    ) as T['$inferSelect'];
}
