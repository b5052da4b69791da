/**
 * @module users-command
 * `vitrine users add NAME [--admin] | list | remove NAME`, on the data dir's store or a Redis
 * service's (`--redis URL`), the same store a host there reads. `add` prints the new token alone
 * on standard output (so `T=$(vitrine users add ada)` keeps it) and it is never shown again:
 * only its SHA-256 is kept. `remove` also forgets the user in every room's access. A running host
 * honours a change from its next request on.
 */
import { parseArgs } from 'node:util';
import { openPeopleHome } from '../people/open-user-store.ts';
import type { AccessStore } from '../people/access-store.ts';
import type { UserRecord, UserStore } from '../people/user-store.ts';
import { addUser, ADMIN_NAME, userNameProblem } from '../people/users.ts';
import { isRedisUrl } from '../options.ts';
import { redactUrl } from '../redact-credentials.ts';
import { chooseDataDir } from './data-dir-choice.ts';

export const USERS_USAGE = `usage: vitrine users <add NAME [--admin] | list [--json] | remove NAME> [--data-dir DIR | --redis URL]

Manages the people who may use a host and their tokens. add prints the user's new token once
(keep it: only its SHA-256 is stored); a request with Authorization: Bearer <token> is that user.
--admin makes an admin (may change any room's access, and the admin routes).
remove also drops the user from every room's access (a room it owned passes to the admins).
The store is the data dir's (default $XDG_DATA_HOME/vitrine, else ~/.local/share/vitrine;
VITRINE_DATA_DIR also sets it), or a Redis service's with --redis URL.
`;

const FLAGS = {
  admin: { type: 'boolean' },
  json: { type: 'boolean' },
  'data-dir': { type: 'string' },
  redis: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Out = (text: string) => void;
const out: Out = (text) => void process.stdout.write(text);
const err: Out = (text) => void process.stderr.write(text);

function listLines(records: UserRecord[], json: boolean): string {
  if (json) return `${JSON.stringify(records.map(({ name, admin, created }) => ({ name, admin, created: new Date(created).toISOString() })))}\n`;
  if (records.length === 0) return '';
  return records.map((r) => `${r.name}\t${r.admin ? 'admin' : 'user'}\t${new Date(r.created).toISOString()}\n`).join('');
}

/**
 * Removes user `name`: first forgotten in every room's access (out of its editors and viewers; a
 * room it owned passes to the admins), then removed, which tells every host (they end what the
 * user has open, and read rooms' access again).
 */
async function remove(home: { users: UserStore; access: AccessStore }, name: string): Promise<number> {
  if (!(await home.users.list()).some((user) => user.name === name)) return err(`vitrine users remove: no user '${name}'\n`), 1;
  const rooms = await home.access.forget(name);
  await home.users.remove(name);
  const owned = rooms.filter(({ access }) => access.owner === ADMIN_NAME).length;
  const where = rooms.length === 0 ? '' : `; dropped from the access of ${rooms.length} room(s)${owned ? `, ${owned} of them it owned now the admins'` : ''}`;
  return err(`user '${name}' removed: its token no longer works${where}\n`), 0;
}

async function run(home: { users: UserStore; access: AccessStore }, verb: string, name: string | undefined, admin: boolean, json: boolean): Promise<number> {
  const store = home.users;
  if (verb === 'list') return out(listLines(await store.list(), json)), 0;
  if (!name) return err(`vitrine users ${verb}: which user? (vitrine users ${verb} NAME)\n`), 2;
  if (verb === 'remove') return remove(home, name);
  const problem = userNameProblem(name);
  if (problem) return err(`vitrine users add: ${problem}\n`), 2;
  const made = await addUser(store, name, admin);
  if (!made) return err(`vitrine users add: user '${name}' already exists (remove it first to give it a new token)\n`), 1;
  out(`${made.token}\n`);
  err(`user '${name}' added${admin ? ' (admin)' : ''}; its token above is shown this once\n`);
  return 0;
}

export async function runUsersCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    return err(`vitrine users: ${(error as Error).message}\n\n${USERS_USAGE}`), 2;
  }
  const { values, positionals } = parsed;
  const [verb, name, ...extra] = positionals;
  if (values.help) return out(USERS_USAGE), 0;
  if (!verb || !['add', 'list', 'remove'].includes(verb) || extra.length > 0) return err(USERS_USAGE), 2;
  const redis = values.redis ?? process.env.VITRINE_REDIS ?? null;
  if (redis && !isRedisUrl(redis)) return err(`vitrine users: --redis must be a URL like redis://HOST:PORT[/DB], got '${redactUrl(redis)}'\n`), 2;
  const dataDir = redis ? null : chooseDataDir(values['data-dir'] ?? (process.env.VITRINE_DATA_DIR || undefined), false).dir;
  if (!redis && !dataDir) return err('vitrine users: --data-dir none keeps no users; name a data dir or --redis\n'), 2;
  const home = openPeopleHome({ redis, dataDir });
  try {
    return await run(home, verb, name, values.admin === true, values.json === true);
  } catch (error) {
    return err(`vitrine users: ${(error as Error).message}\n`), 1;
  } finally {
    await home.access.close();
    await home.users.close();
  }
}
