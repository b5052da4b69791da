/**
 * @module dev-session
 * The watch loop of `vitrine dev`: a change under SRC names its plugin (the first folder of
 * the path), and a change to code shared between plugins names every plugin whose bundle read
 * it; after a short quiet period each such plugin alone is rebuilt by the warm
 * IncrementalBuilder, written to its bundle folder and swapped into the running host. Builds
 * run one at a time; a plugin saved again while it builds is rebuilt once more afterwards.
 * Failed builds print their diagnostics, publish a `build-error` event for open viewers (and
 * for those opened later, until the plugin builds), and leave the last good build serving. A build whose sources changed while it ran writes nothing
 * (its manifest could describe other code than its bundle) and is tried again.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BuildDiagnostic } from '../../build/diagnostics/build-diagnostic.ts';
import { formatDiagnostic } from '../../build/diagnostics/format-diagnostic.ts';
import { writePluginFolder } from '../../build/output/write-output.ts';
import type { IncrementalBuilder } from '../../build/dev/incremental-builder.ts';
import { TreeWatcher } from '../../build/dev/watch-tree.ts';
import type { HostEvent } from '../events/event-hub.ts';

/** Quiet time after the last change event before rebuilding (editors save in bursts). */
const SETTLE_MS = 15;

/** What a failed build leaves served: the plugin's last good build, or nothing yet. */
export function buildFailedLine(plugin: string, errors: number, served: boolean): string {
  const what = served ? 'still serving its last good build' : 'it has never built, so it is not served until it does';
  return `vitrine dev: ${plugin} has ${errors} error${errors === 1 ? '' : 's'}; ${what}`;
}

/** The `build-error` host event of a failed build: each diagnostic with its file, line and column. */
export function buildErrorEvent(plugin: string, diagnostics: readonly BuildDiagnostic[]): HostEvent {
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

export interface DevSessionOptions {
  srcDir: string;
  outDir: string;
  builder: IncrementalBuilder;
  app: FastifyInstance;
  /** Where progress lines go (stdout) and errors (stderr). */
  out: (line: string) => void;
  err: (line: string) => void;
}

export class DevSession {
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
        await this.rebuild(plugin, since);
      } catch (error) {
        this.#options.err(`vitrine dev: ${plugin}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Rebuilds and swaps in one plugin; `since` is when its change was seen (for the timing). */
  async rebuild(plugin: string, since = performance.now()): Promise<void> {
    const { builder, app, outDir, out, err } = this.#options;
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

  /** Waits for the build in progress, if any. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async close(): Promise<void> {
    this.#watcher?.close();
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    await this.idle();
  }
}
