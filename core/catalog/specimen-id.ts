/**
 * @module specimen-id
 * The rule for specimen ids: they appear in URL paths, so letters, digits, `.`, `_` and `-`
 * only, starting with a letter or digit.
 */

export const SPECIMEN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const MAX_SPECIMEN_ID_LENGTH = 128;

export function isValidSpecimenId(id: unknown): id is string {
  return typeof id === 'string' && id.length <= MAX_SPECIMEN_ID_LENGTH && SPECIMEN_ID_PATTERN.test(id);
}
