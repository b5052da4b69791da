/**
 * @module users-command
 * `vitrine users add NAME [--admin] | list | remove NAME`, on the data dir's store or a Redis
 * service's (`--redis URL`), the same store a host there reads. `add` prints the new token alone
 * on standard output (so `T=$(vitrine users add ada)` keeps it) and it is never shown again:
 * only its SHA-256 is kept. A running host honours a change from its next request on.
 */
import { parseArgs } from 'node:util';
import { openUserStore } from '../people/open-user-store.ts';
import type { UserRecord, UserStore } from '../people/user-store.ts';
import { addUser, userNameProblem } from '../people/users.ts';
import { isRedisUrl } from '../options.ts';
import { redactUrl } from '../redact-credentials.ts';
import { chooseDataDir } from './data-dir-choice.ts';

export const USERS_USAGE = `usage: vitrine users <add NAME [--admin] | list [--json] | remove NAME> [--data-dir DIR | --redis URL]

Manages the people who may use a host and their tokens. add prints the user's new token once
(keep it: only its SHA-256 is stored); a request with Authorization: Bearer <token> is that user.
--admin makes an admin (may change any room's access, and the admin routes).
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

async function run(store: UserStore, verb: string, name: string | undefined, admin: boolean, json: boolean): Promise<number> {
  if (verb === 'list') return out(listLines(await store.list(), json)), 0;
  if (!name) return err(`vitrine users ${verb}: which user? (vitrine users ${verb} NAME)\n`), 2;
  if (verb === 'remove') {
    if (await store.remove(name)) return err(`user '${name}' removed: its token no longer works\n`), 0;
    return err(`vitrine users remove: no user '${name}'\n`), 1;
  }
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
  const store = openUserStore({ redis, dataDir });
  try {
    return await run(store, verb, name, values.admin === true, values.json === true);
  } catch (error) {
    return err(`vitrine users: ${(error as Error).message}\n`), 1;
  } finally {
    await store.close();
  }
}
