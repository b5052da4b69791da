/**
 * @module people-errors
 * The error catalog's codes of one area (core/errors.ts gathers them): who may do what: users,
 * tokens, tickets and rooms' access.
 */
import { entry, type CatalogEntry } from './error-entry.ts';

export const PEOPLE_ERRORS = {
  // --- people and rooms' access ---
  SPC_ERR_TOKEN_UNKNOWN: entry(401, () => 'the token sent as Authorization: Bearer is not one this host knows (mistyped, or its user was removed)'),
  SPC_ERR_TICKET_SIGN_IN: entry(401, () => 'a ticket stands for a user: send Authorization: Bearer <token> to ask for one'),
  SPC_ERR_TICKET_UNKNOWN: entry(401, () => 'the event stream ticket is unknown, already used or expired: ask POST /api/tickets for a new one'),
  SPC_ERR_PROXY_USER_REFUSED: entry(
    403,
    (header = '?', name = '?') =>
      `the login proxy names the user '${name}' (${header}), a name this host does not accept: user names are letters, digits and . _ @ + - ` +
      '(up to 128, starting with a letter or digit), never admin, anonymous or host',
  ),
  SPC_ERR_ADMIN_USER_NEEDED: entry(403, (name = '?') => `user '${name}' is not an admin; this route needs an admin's token`),
  SPC_ERR_ROOM_SIGN_IN: entry(
    401,
    (room = '?') => `room '${room}' is closed to anonymous writes: send Authorization: Bearer <token> of its owner or an editor`,
  ),
  SPC_ERR_ROOM_WRITE_FORBIDDEN: entry(403, (room = '?', name = '?') => `user '${name}' may not change room '${room}': only its owner and editors may`),
  SPC_ERR_ROOM_NOT_VISIBLE: entry(404, (room = '?') => `no room '${room}' is open to you here`),
  SPC_ERR_ACCESS_SIGN_IN: entry(401, (room = '?') => `setting the access of room '${room}' needs a user: send Authorization: Bearer <token>`),
  SPC_ERR_ACCESS_OWNER_ONLY: entry(403, (room = '?', owner = '?') => `only the owner of room '${room}' ('${owner}') or an admin may change its access`),
} as const satisfies Record<string, CatalogEntry>;
