/**
 * @module main
 * Dispatches `vitrine <command>`: `build` compiles plugins, `serve` runs the host.
 */

const USAGE = `usage: vitrine <command> [options]

commands:
  build [SRC] [--out DIR] [--check]   compile plugin folders in SRC (default plugins) into DIR (default build/out)
  serve [options]                     run the host (vitrine serve --help for options)
`;

/** Runs one CLI invocation and returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'build': {
      const { runBuildCommand } = await import('../../build/cli-build.ts');
      return runBuildCommand(rest);
    }
    case 'serve': {
      const { runServeCommand } = await import('../server.ts');
      return runServeCommand(rest);
    }
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(USAGE);
      return command === undefined ? 1 : 0;
    default:
      process.stderr.write(`vitrine: unknown command '${command}'\n${USAGE}`);
      return 2;
  }
}
