/**
 * @module incremental-builder
 * The build of `vitrine dev`: one ts-morph Project and one esbuild context per plugin stay
 * warm between builds, so rebuilding the plugin whose file was saved re-reads only that
 * plugin's sources (the type checker reuses everything else) and bundles incrementally. Names
 * are checked across plugins against the last analysis of the others. A Python plugin is read
 * again by the interpreter (a fraction of a TypeScript rebuild) and its files collected anew.
 *
 * Every file the checker holds is read again before an analysis, not only those added to the
 * project: a function in a second file of the plugin (re-exported from index.ts) is held only
 * as an import's target. After the bundle is made, the sources it read are compared with what
 * the analysis read; a file saved in between is built again, so a manifest never describes
 * older code than the bundle beside it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { context, type BuildContext } from 'esbuild';
import type { Project } from 'ts-morph';
import { checkUniqueNames, toPluginOutput, type BuildOptions } from '../build-plugins.ts';
import { reportBundleFailure } from '../bundle/bundle-plugin.ts';
import { pluginEsbuildOptions } from '../bundle/esbuild-options.ts';
import type { BuildDiagnostic } from '../diagnostics/build-diagnostic.ts';
import { collectTypeErrors } from '../diagnostics/type-errors.ts';
import type { PluginOutput } from '../output/plugin-output.ts';
import { analyzePlugin, type PluginAnalysis } from '../plugins/analyze-plugin.ts';
import { checkPluginFolder } from '../plugins/check-plugin-folder.ts';
import { findPlugins, pluginSourceOf, type PluginSource } from '../plugins/find-plugins.ts';
import { createBuildProject } from '../project/create-project.ts';
import { analyzePythonPlugins } from '../python/analyze-python-plugins.ts';
import { collectPythonFiles } from '../python/python-bundle-files.ts';
import { resolvePython } from '../python/python-interpreter.ts';
import { createParamParser } from '../schema/create-param-parser.ts';
import type { ParamChain } from '../schema/param-parser.ts';

/** One plugin's build: its bundle folder in memory, or the diagnostics that stopped it. */
export interface PluginBuild {
  name: string;
  output: PluginOutput | null;
  diagnostics: BuildDiagnostic[];
  /** No output because its sources kept changing while it was built (a later save builds it again). */
  changing?: true;
}

/** Builds of one plugin tried while its sources change under them, before giving up for now. */
const MAX_ATTEMPTS = 3;

export class IncrementalBuilder {
  readonly #srcDir: string;
  readonly #outDir: string;
  readonly #project: Project = createBuildProject();
  readonly #chain: ParamChain = createParamParser();
  readonly #contexts = new Map<string, BuildContext>();
  /** The last good analysis of each plugin. */
  readonly #analyses = new Map<string, PluginAnalysis>();
  /** Every source file each plugin's last bundle read (absolute paths), shared code included. */
  readonly #inputs = new Map<string, Set<string>>();
  readonly #python: string;

  constructor(srcDir: string, outDir: string, options: BuildOptions = {}) {
    this.#srcDir = srcDir;
    this.#outDir = outDir;
    this.#python = resolvePython(options.python);
  }

  /** The plugin folders SRC holds now. */
  plugins(): PluginSource[] {
    return findPlugins(this.#srcDir);
  }

  /** Builds every plugin (the first build), one after another. */
  async buildAll(): Promise<PluginBuild[]> {
    const builds: PluginBuild[] = [];
    for (const plugin of this.plugins()) builds.push(await this.build(plugin.name));
    return builds;
  }

  /** The plugin a changed path belongs to (its first folder under SRC), if any. */
  pluginOf(file: string): string | null {
    const relative = path.relative(this.#srcDir, path.resolve(this.#srcDir, file));
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
    const [first, ...rest] = relative.split(path.sep);
    // Bytecode caches change whenever Python imports a plugin (its tests do): no source changed.
    if (rest.some((part) => part === '__pycache__') || /\.py[co]$/.test(relative)) return null;
    return rest.length > 0 && first ? first : null;
  }

  /** True when SRC still has a plugin folder `name` (with its index.ts or plugin.py). */
  exists(name: string): boolean {
    return pluginSourceOf(this.#srcDir, name) !== null;
  }

  /** The plugins whose last bundle read `file` (a change to shared code rebuilds them all). */
  dependents(file: string): string[] {
    const absolute = path.resolve(file);
    return [...this.#inputs].filter(([, inputs]) => inputs.has(absolute)).map(([name]) => name);
  }

  /** True when plugin `name` was built before (successfully or not). */
  knows(name: string): boolean {
    return this.#contexts.has(name) || this.#analyses.has(name);
  }

  /** Rebuilds plugin `name` from what is on disk now. */
  async build(name: string): Promise<PluginBuild> {
    const plugin: PluginSource = pluginSourceOf(this.#srcDir, name) ?? {
      name,
      dir: path.join(this.#srcDir, name),
      entry: path.join(this.#srcDir, name, 'index.ts'),
      runtime: 'node',
    };
    const diagnostics: BuildDiagnostic[] = [];
    if (!checkPluginFolder(plugin, diagnostics)) return { name, output: null, diagnostics };
    if (plugin.runtime === 'python') return this.#buildPython(plugin);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const tried: BuildDiagnostic[] = [];
      const analysis = this.#analyze(plugin, tried);
      const bundle = await this.#bundle(plugin, tried);
      if (tried.length > 0) return { name, output: null, diagnostics: tried };
      if (!this.#analysedAsBundled(plugin)) continue;
      this.#analyses.set(name, analysis);
      return { name, output: toPluginOutput(analysis, bundle), diagnostics: tried };
    }
    return { name, output: null, diagnostics, changing: true };
  }

  /** Whether every source the bundle read is, on disk now, what the analysis read. */
  #analysedAsBundled(plugin: PluginSource): boolean {
    for (const filePath of this.#inputs.get(plugin.name) ?? []) {
      const held = this.#project.getSourceFile(filePath);
      if (!held) continue;
      let text: string;
      try {
        text = readFileSync(filePath, 'utf8');
      } catch {
        return false;
      }
      if (text !== held.getFullText()) return false;
    }
    return true;
  }

  /** Reads again every source of SRC the checker holds (a plugin's, shared code, what its bundle read). */
  #refresh(plugin: PluginSource): void {
    const roots = [`${plugin.dir}${path.sep}`, `${this.#srcDir}${path.sep}`];
    const inputs = this.#inputs.get(plugin.name);
    const held = new Set(this.#project.getSourceFiles().map((file) => path.resolve(file.getFilePath())));
    // An import's target is held by the checker without being added to the project: listed by the program only.
    for (const file of this.#project.getProgram().compilerObject.getSourceFiles()) held.add(path.resolve(file.fileName));
    for (const filePath of held) {
      const ours = roots.some((root) => filePath.startsWith(root)) && !filePath.includes(`${path.sep}node_modules${path.sep}`);
      if (!ours && !inputs?.has(filePath)) continue;
      const file = this.#project.getSourceFile(filePath);
      if (!file) continue;
      if (existsSync(filePath)) file.refreshFromFileSystemSync();
      else this.#project.removeSourceFile(file);
    }
  }

  #analyze(plugin: PluginSource, diagnostics: BuildDiagnostic[]): PluginAnalysis {
    this.#refresh(plugin);
    if (!this.#project.getSourceFile(plugin.entry)) this.#project.addSourceFileAtPath(plugin.entry);
    const analysis = analyzePlugin(this.#project, plugin, this.#chain, diagnostics);
    this.#checkNames(analysis, diagnostics);
    collectTypeErrors(this.#project, [plugin], diagnostics);
    return analysis;
  }

  /** Only this plugin's clashes: the others were checked when they were built. */
  #checkNames(analysis: PluginAnalysis, diagnostics: BuildDiagnostic[]): void {
    const others = [...this.#analyses.values()].filter((other) => other.plugin.name !== analysis.plugin.name);
    const clashes: BuildDiagnostic[] = [];
    checkUniqueNames([...others, analysis], clashes);
    diagnostics.push(...clashes.filter((d) => d.plugin === analysis.plugin.name));
  }

  async #buildPython(plugin: PluginSource): Promise<PluginBuild> {
    const diagnostics: BuildDiagnostic[] = [];
    const [analysis] = await analyzePythonPlugins([plugin], this.#python, diagnostics);
    this.#checkNames(analysis!, diagnostics);
    // A folder that was a TypeScript plugin before holds no bundle to keep warm any more.
    await this.#contexts.get(plugin.name)?.dispose();
    this.#contexts.delete(plugin.name);
    this.#inputs.delete(plugin.name);
    if (diagnostics.length > 0) return { name: plugin.name, output: null, diagnostics };
    this.#analyses.set(plugin.name, analysis!);
    return { name: plugin.name, output: toPluginOutput(analysis!, null, collectPythonFiles(plugin.dir)), diagnostics };
  }

  async #bundle(plugin: PluginSource, diagnostics: BuildDiagnostic[]): Promise<Buffer | null> {
    let ctx = this.#contexts.get(plugin.name);
    if (!ctx) {
      ctx = await context({ ...pluginEsbuildOptions(plugin.entry, path.join(this.#outDir, plugin.name)), metafile: true });
      this.#contexts.set(plugin.name, ctx);
    }
    try {
      const result = await ctx.rebuild();
      const read = Object.keys(result.metafile?.inputs ?? {}).map((input) => path.resolve(plugin.dir, input));
      this.#inputs.set(plugin.name, new Set(read));
      const file = result.outputFiles?.[0];
      return file ? Buffer.from(file.contents) : null;
    } catch (error) {
      return reportBundleFailure(error, plugin, diagnostics);
    }
  }

  /** Forgets a plugin whose folder is gone. */
  async forget(name: string): Promise<void> {
    this.#analyses.delete(name);
    this.#inputs.delete(name);
    await this.#contexts.get(name)?.dispose();
    this.#contexts.delete(name);
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.#contexts.values()].map((ctx) => ctx.dispose()));
    this.#contexts.clear();
  }
}
