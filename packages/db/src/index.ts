export { openDatabase } from './open-database.js';
export type { Database, DatabaseHandle, DatabaseOptions, Migrations } from './open-database.js';
export { isUniqueViolation, isForeignKeyViolation } from './errors.js';
export { preparedSql } from './prepared-sql.js';
