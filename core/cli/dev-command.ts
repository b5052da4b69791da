/**
 * @module dev-command
 * `vitrine dev [SRC] [serve options]`: builds every plugin of SRC (default `plugins`) into the
 * plugins directory (`--plugins`, default `build/out`), serves it like `vitrine serve`, and
 * watches SRC (see dev-session.ts). A plugin that does not build at first is left out until a
 * save fixes it. Exit codes: 0 after SIGINT/SIGTERM, 1 when the host cannot start, 2 usage.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../app.ts';
import type { HttpsListener } from '../tls/https-listener.ts';
import { startHttps } from '../tls/start-https.ts';
import { parseServeOptions, type ServeOptions } from './serve-options.ts';
import { SERVE_USAGE } from './serve-usage.ts';
import { listen } from '../server.ts';
import { displayPath, formatDiagnostic } from '../../build/diagnostics/format-diagnostic.ts';
import { listBundleFolders } from '../../build/output/read-bundle-folder.ts';
import { writePluginFolder } from '../../build/output/write-output.ts';
import { buildErrorEvent, buildFailedLine, DevSession } from './dev-session.ts';
import { untilSignalled } from './process-lifecycle.ts';
import { IncrementalBuilder } from '../../build/dev/incremental-builder.ts';
import { fail, say } from './command-exit.ts';

export const DEV_USAGE = `usage: vitrine dev [SRC] [serve options]

  SRC   folder of plugin folders (default: plugins), built into --plugins (default: build/out)
        and rebuilt plugin by plugin as files change

${SERVE_USAGE.split('\n').slice(1).join('\n')}`;

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

/** Runs `vitrine dev` with `argv` (the arguments after `dev`); resolves with the exit code. */
export async function runDevCommand(argv: string[]): Promise<number> {
  const cwd = process.cwd();
  const src = argv[0] !== undefined && !argv[0].startsWith('-') ? argv[0] : undefined;
  let parsed: ServeOptions;
  try {
    parsed = parseServeOptions(src === undefined ? argv : argv.slice(1));
  } catch (error) {
    return fail(2, `vitrine dev: ${(error as Error).message}\n\n${DEV_USAGE}\n`);
  }
  if (parsed.help) return say(DEV_USAGE);
  const srcDir = path.resolve(cwd, src ?? 'plugins');
  if (!existsSync(srcDir) || !statSync(srcDir).isDirectory()) return fail(2, `vitrine dev: source folder ${displayPath(srcDir, cwd)} does not exist\n`);
  if (!parsed.host_options.pluginsDir) return fail(2, 'vitrine dev: --plugins must name the folder the plugins are built into\n');
  const outDir = path.resolve(cwd, parsed.host_options.pluginsDir);

  const started = performance.now();
  const builder = new IncrementalBuilder(srcDir, outDir);
  const builds = await builder.buildAll();
  const names = new Set(builds.map((b) => b.name));
  for (const stale of listBundleFolders(outDir)) if (!names.has(stale)) rmSync(path.join(outDir, stale), { recursive: true, force: true });
  for (const build of builds) {
    if (build.output) {
      writePluginFolder(outDir, build.output);
      for (const warning of build.output.warnings) err(formatDiagnostic(warning, cwd));
    } else {
      rmSync(path.join(outDir, build.name), { recursive: true, force: true });
      for (const diagnostic of build.diagnostics) err(formatDiagnostic(diagnostic, cwd));
      err(buildFailedLine(build.name, build.diagnostics.length, false));
    }
  }
  const good = builds.filter((b) => b.output).length;
  out(
    `built ${good} of ${builds.length} plugin${builds.length === 1 ? '' : 's'} into ${displayPath(outDir, cwd)} in ` +
    `${((performance.now() - started) / 1000).toFixed(2)} s`,
  );

  let app;
  let url: string;
  try {
    app = await createApp({ ...parsed.host_options, pluginsDir: outDir });
    url = await listen(app, parsed.host, parsed.port);
  } catch (error) {
    err(`vitrine dev: ${(error as Error).message}`);
    await builder.dispose();
    await app?.close();
    return 1;
  }
  // The plugins that failed before the host was up stand failed for the pages it serves.
  for (const build of builds) if (!build.output) app.vitrine.publishHostEvent(buildErrorEvent(build.name, build.diagnostics));
  const session = new DevSession({ srcDir, outDir, builder, app, out, err });
  session.start();
  let tls: HttpsListener | null = null;
  const host = app;
  // Signals are taken before `listening on` is printed (a stop right after it is a clean one).
  const ended = untilSignalled({
    name: 'vitrine dev',
    announce: (signal) => host.log.info(`${signal}: shutting down`),
    shutdown: async () => {
      await session.close();
      await tls?.close();
      await builder.dispose();
      await host.close();
    },
  });
  if (parsed.admin.warning) app.log.warn(parsed.admin.warning);
  if (parsed.admin.announce) out(parsed.admin.announce);
  if (parsed.data.warning) app.log.warn(parsed.data.warning);
  if (parsed.data.line) out(parsed.data.line);
  out(`listening on ${url}`);
  if (parsed.https) {
    try {
      tls = await startHttps(app, parsed.host, parsed.https, out);
    } catch (error) {
      err(`vitrine dev: cannot listen with TLS: ${(error as Error).message}`);
      await session.close();
      await builder.dispose();
      await app.close();
      return 1;
    }
  }
  out(`watching ${displayPath(srcDir, cwd)}: a saved plugin is rebuilt and reloaded`);

  return ended;
}
