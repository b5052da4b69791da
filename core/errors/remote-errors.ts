/**
 * @module remote-errors
 * The error catalog's codes of one area (core/errors.ts gathers them): data read in place from
 * the remotes an operator names (`--remote NAME=URL`).
 */
import { entry } from './error-entry.ts';

export const REMOTE_ERRORS = {
  SPC_ERR_REMOTE_NOT_ALLOWED: entry(400, (what = '?', why = 'it is not within any --remote') => `remote '${what}' is not allowed: ${why}`),
  SPC_ERR_REMOTE_UNAVAILABLE: entry(502, (remote = '?', key = '?', why = 'it failed') => `remote '${remote}' could not give '${key}': ${why}`),
  SPC_ERR_REMOTE_UNREADABLE: entry(400, (key = '?', why = '?') => `cannot read '${key}' from the remote: ${why}`),
  SPC_ERR_REMOTE_KEY_NOT_FOUND: entry(404, (key = '?', id = '?') => `'${key}' is not in the image of remote specimen '${id}'`),
} as const;
