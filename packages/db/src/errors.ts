// PostgreSQL error codes (same on PGlite). Drizzle wraps driver errors, so the code may sit on `cause`.
function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown): boolean => pgCode(error) === '23505';
/** A row still referenced (23503 foreign_key_violation, 23001 restrict_violation for ON DELETE RESTRICT). */
export const isForeignKeyViolation = (error: unknown): boolean => {
  const code = pgCode(error);
  return code === '23503' || code === '23001';
};
