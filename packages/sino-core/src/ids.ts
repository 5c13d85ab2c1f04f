import { ObjectId } from 'bson';

/** A new 24-hex id, shaped as Novu's MongoDB ids so Novu's clients accept it. */
export const newId = (): string => new ObjectId().toHexString();

/** True for a 24-hex id; anything else can never match a row (answer 404, not 500). */
export const isId = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{24}$/.test(value);
