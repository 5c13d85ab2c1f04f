export { openDatabase } from './open-database.js';
export { FolderInUseError } from './folder-lock.js';
export type { Database, DatabaseHandle, DatabaseOptions, Migrations } from './open-database.js';
export {
  errorForLog,
  isDatabaseUnavailable,
  isForeignKeyViolation,
  isUniqueViolation,
  QueryError,
  toQueryError,
} from './errors.js';
export { logSerializers, requestForLog } from './logging.js';
export { plannedSql, preparedSql } from './prepared-sql.js';
export { rowMapper } from './rows.js';
export { findUnstorableInput, MAX_INPUT_DEPTH } from './storable-input.js';
export type { UnstorableInput, UnstorableReason } from './storable-input.js';
export { backUpDatabase, BackupError, restoreDatabase } from './backup.js';
export type { BackupSummary, BackupTarget } from './backup.js';
