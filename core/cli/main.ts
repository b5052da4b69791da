/**
 * @module main
 * Dispatches `vitrine <command>`: `build` compiles plugins, `serve` runs the host, `worker` computes for a Redis service, `init`
 * writes a plugin project, `backup` copies a lone host's data folder, `sign` signs bundles, `dev` builds, serves and rebuilds on change, `thumbnails` renders
 * declared specimens' thumbnails, `python-path` says where
 * the `vitrine` Python module is, `--version` what runs. The build tools load only for the commands that use them.
 */
import { followLauncher, relaunchWithAllocatorEnv, wantsAllocatorEnv } from './allocator-env.ts';
import { fail, say } from './command-exit.ts';

const USAGE = `usage: vitrine <command> [options]

commands:
  build [SRC] [--out DIR] [--check]   compile plugin folders in SRC (default plugins) into DIR (default build/out);
                                      --python PATH reads Python plugins with that interpreter
  serve [options]                     run the host (vitrine serve --help for options)
  worker --redis URL [options]        compute for a Redis service, no HTTP (vitrine worker --help)
  init DIR [--vitrine SPEC]           write a plugin project into DIR; --python writes a Python one
  dev [SRC] [serve options]           build, serve, and rebuild each plugin of SRC when it changes
  sign --key KEY.pem DIR              sign each plugin bundle in DIR with an Ed25519 key (manifest.sig)
  thumbnails [SRC] [ID ...]           render each declared specimen's thumbnail into SRC/<plugin>/thumbnails/<id>.png
  backup [--data-dir DIR] OUT         copy a lone host's data folder into OUT while it runs (serve OUT to restore)
  users add|list|remove [NAME]        the people who may use a host and their tokens (vitrine users --help)
  python-path                         print the folder holding the vitrine Python module (for PYTHONPATH)
  --version                           print the version of vitrine
`;

type Command = (args: string[]) => number | Promise<number>;

/** Each command's module, loaded only when that command runs. */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  build: async () => (await import('./build-command.ts')).runBuildCommand,
  serve: async () => (await import('./serve-command.ts')).runServeCommand,
  worker: async () => (await import('./worker-command.ts')).runWorkerCommand,
  init: async () => (await import('./init-command.ts')).runInitCommand,
  dev: async () => (await import('./dev-command.ts')).runDevCommand,
  sign: async () => (await import('./sign-command.ts')).runSignCommand,
  thumbnails: async () => (await import('./thumbnails-command.ts')).runThumbnailsCommand,
  backup: async () => (await import('./backup-command.ts')).runBackupCommand,
  users: async () => (await import('./users-command.ts')).runUsersCommand,
};

/** The version of the running package. */
async function ownVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { PACKAGE_ROOT } = await import('../loading/package-layout.ts');
  return (JSON.parse(await readFile(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Runs one CLI invocation and returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // The commands that run a host start it with the allocator setting that returns freed memory.
  if (command === 'serve' || command === 'dev') {
    if (wantsAllocatorEnv()) return relaunchWithAllocatorEnv(argv);
    followLauncher();
  }
  if (command !== undefined && Object.hasOwn(COMMANDS, command)) return (await COMMANDS[command]!())(rest);
  switch (command) {
    case 'python-path': {
      const { PYTHON_MODULE_DIR } = await import('../python/python-module-dir.ts');
      return say(`${PYTHON_MODULE_DIR}\n`);
    }
    case '-v':
    case '--version':
    case 'version':
      return say(`${await ownVersion()}\n`);
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(USAGE);
      return command === undefined ? 1 : 0;
    default:
      return fail(2, `vitrine: unknown command '${command}'\n${USAGE}`);
  }
}
