/**
 * @module dev-command
 * `vitrine dev [SRC] [serve options]`: builds every plugin of SRC (default `plugins`) into the
 * plugins directory (`--plugins`, default `build/out`), serves it like `vitrine serve`, and
 * watches SRC. A plugin that does not build at first is left out until a save fixes it. Exit
 * codes: 0 after SIGINT/SIGTERM, 1 when the host cannot start, 2 usage.
 *
 * The watch loop: a change under SRC names its plugin (the first folder of the path), and a
 * change to code shared between plugins names every plugin whose bundle read it; after a short
 * quiet period each such plugin alone is rebuilt by the warm IncrementalBuilder, written to its
 * bundle folder and swapped into the running host. Builds run one at a time; a plugin saved
 * again while it builds is rebuilt once more afterwards. Failed builds print their diagnostics,
 * publish a `build-error` event for open viewers (and for those opened later, until the plugin
 * builds), and leave the last good build serving. A build whose sources changed while it ran
 * writes nothing (its manifest could describe other code than its bundle) and is tried again.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../app.ts';
import type { FastifyInstance } from 'fastify';
import { startHttps, type HttpsListener } from '../tls/https-listener.ts';
import { parseServeOptions, type ServeOptions } from './serve-options.ts';
import { SERVE_USAGE } from './serve-usage.ts';
import { listen } from '../server.ts';
import { displayPath, formatDiagnostic } from '../../build/diagnostics/format-diagnostic.ts';
import { listBundleFolders } from '../../build/output/read-bundle-folder.ts';
import { writePluginFolder } from '../../build/output/write-output.ts';
import { untilSignalled } from './process-lifecycle.ts';
import { IncrementalBuilder } from '../../build/dev/incremental-builder.ts';
import type { BuildDiagnostic } from '../../build/diagnostics/build-diagnostic.ts';
import { TreeWatcher } from '../../build/dev/watch-tree.ts';
import type { HostEvent } from '../events/event-hub.ts';
import { plural } from '../formats/decoded-size.ts';
import { fail, say } from './command-exit.ts';

export const DEV_USAGE = `usage: vitrine dev [SRC] [serve options]

  SRC   folder of plugin folders (default: plugins), built into --plugins (default: build/out)
        and rebuilt plugin by plugin as files change

${SERVE_USAGE.split('\n').slice(1).join('\n')}`;

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

/** Quiet time after the last change event before rebuilding (editors save in bursts). */
const SETTLE_MS = 15;

/** What a failed build leaves served: the plugin's last good build, or nothing yet. */
function buildFailedLine(plugin: string, errors: number, served: boolean): string {
  const what = served ? 'still serving its last good build' : 'it has never built, so it is not served until it does';
  return `vitrine dev: ${plugin} has ${plural(errors, 'error')}; ${what}`;
}

/** The `build-error` host event of a failed build: each diagnostic with its file, line and column. */
function buildErrorEvent(plugin: string, diagnostics: readonly BuildDiagnostic[]): HostEvent {
  const cwd = process.cwd();
  const errors = diagnostics.map((d) => ({
    code: d.code,
    message: d.message,
    text: formatDiagnostic(d, cwd),
    file: d.location?.file ?? null,
    line: d.location?.line ?? null,
    column: d.location?.column ?? null,
  }));
  return { event: 'build-error', data: { plugin, errors } };
}

interface DevSessionOptions {
  srcDir: string;
  outDir: string;
  builder: IncrementalBuilder;
  app: FastifyInstance;
}

class DevSession {
  readonly #options: DevSessionOptions;
  #watcher: TreeWatcher | null = null;
  readonly #timers = new Map<string, { timer: NodeJS.Timeout; since: number }>();
  readonly #dirty = new Map<string, number>();
  #running: Promise<void> | null = null;

  constructor(options: DevSessionOptions) {
    this.#options = options;
  }

  start(): void {
    this.#watcher = new TreeWatcher(this.#options.srcDir, (file) => this.#changed(file));
  }

  #changed(file: string): void {
    const { builder } = this.#options;
    const plugin = builder.pluginOf(file);
    const targets = new Set(builder.dependents(file));
    if (plugin) targets.add(plugin);
    for (const target of targets) this.#schedule(target);
  }

  #schedule(plugin: string): void {
    const pending = this.#timers.get(plugin);
    if (pending) clearTimeout(pending.timer);
    const since = pending?.since ?? performance.now();
    this.#timers.set(plugin, { since, timer: setTimeout(() => this.#queue(plugin, since), SETTLE_MS) });
  }

  #queue(plugin: string, since: number): void {
    this.#timers.delete(plugin);
    this.#dirty.set(plugin, Math.min(since, this.#dirty.get(plugin) ?? since));
    this.#running ??= this.#drain().finally(() => (this.#running = null));
  }

  async #drain(): Promise<void> {
    for (let next = this.#dirty.entries().next(); !next.done; next = this.#dirty.entries().next()) {
      const [plugin, since] = next.value;
      this.#dirty.delete(plugin);
      try {
        await this.#rebuild(plugin, since);
      } catch (error) {
        err(`vitrine dev: ${plugin}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Rebuilds and swaps in one plugin; `since` is when its change was seen (for the timing). */
  async #rebuild(plugin: string, since: number): Promise<void> {
    const { builder, app, outDir } = this.#options;
    if (!builder.exists(plugin)) {
      // A folder that never was a plugin (shared code, a plugin not yet given its index.ts).
      if (!builder.knows(plugin)) return;
      await builder.forget(plugin);
      rmSync(path.join(outDir, plugin), { recursive: true, force: true });
      await app.vitrine.reloadPlugin(plugin);
      out(`removed ${plugin}`);
      return;
    }
    const built = await builder.build(plugin);
    // Saved again while it was built: the save's own event builds it once more.
    if (built.changing) {
      this.#schedule(plugin);
      return;
    }
    if (!built.output) {
      const cwd = process.cwd();
      for (const diagnostic of built.diagnostics) err(formatDiagnostic(diagnostic, cwd));
      // Only a plugin that built before has a last good build to keep serving.
      const served = existsSync(path.join(outDir, plugin, 'manifest.json'));
      err(buildFailedLine(plugin, built.diagnostics.length, served));
      app.vitrine.publishHostEvent(buildErrorEvent(plugin, built.diagnostics));
      return;
    }
    writePluginFolder(outDir, built.output);
    for (const warning of built.output.warnings) err(formatDiagnostic(warning, process.cwd()));
    await app.vitrine.reloadPlugin(plugin);
    out(`reloaded ${plugin} in ${Math.round(performance.now() - since)} ms`);
  }

  /** Stops watching and waits for the build in progress, if any. */
  async close(): Promise<void> {
    this.#watcher?.close();
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    while (this.#running) await this.#running;
  }
}

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
    `built ${good} of ${plural(builds.length, 'plugin')} into ${displayPath(outDir, cwd)} in ` +
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
  const session = new DevSession({ srcDir, outDir, builder, app });
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
