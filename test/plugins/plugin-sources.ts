/**
 * @module plugin-sources
 * Reads the example plugins for tests: imports each `plugins/<name>/index.ts` and, with
 * ts-morph, each exported function's parameters with their defaults and the `@minimum` /
 * `@maximum` tags of its doc comment.
 */
import { readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Project } from 'ts-morph';
import type { SpecimenResult } from 'vitrine';
import { loadPlugin, type TestPlugin } from '../../core/testing/index.ts';

export const PLUGINS_DIR = resolve(fileURLToPath(new URL('../../plugins', import.meta.url)));

/** One parameter as declared. */
export interface DeclaredParameter {
  name: string;
  type: string;
  /** The initializer text, when there is one. */
  initializer: string | undefined;
  minimum: number | undefined;
  maximum: number | undefined;
}

/** One exported function as declared. */
export interface DeclaredFunction {
  plugin: string;
  name: string;
  returnType: string;
  parameters: DeclaredParameter[];
}

/** The plugin folder names (those with an index.ts), sorted. */
export function pluginNames(): string[] {
  return readdirSync(PLUGINS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(PLUGINS_DIR, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
}

/** Imports a plugin's index.ts. */
export async function importPlugin(plugin: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(join(PLUGINS_DIR, plugin, 'index.ts')).href)) as Record<string, unknown>;
}

/** Every exported function of every plugin, read from source. */
export function declaredFunctions(): DeclaredFunction[] {
  const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  const out: DeclaredFunction[] = [];
  for (const plugin of pluginNames()) {
    const file = project.addSourceFileAtPath(join(PLUGINS_DIR, plugin, 'index.ts'));
    for (const fn of file.getFunctions()) {
      if (!fn.isExported()) continue;
      const bounds = new Map<string, { minimum?: number; maximum?: number }>();
      for (const tag of fn.getJsDocs().flatMap((doc) => doc.getTags())) {
        const kind = tag.getTagName();
        if (kind !== 'minimum' && kind !== 'maximum') continue;
        const [name, value] = (tag.getCommentText() ?? '').trim().split(/\s+/);
        const entry = bounds.get(name!) ?? {};
        entry[kind] = Number(value);
        bounds.set(name!, entry);
      }
      out.push({
        plugin,
        name: fn.getName()!,
        returnType: fn.getReturnTypeNode()?.getText() ?? '',
        parameters: fn.getParameters().map((p) => ({
          name: p.getName(),
          type: p.getTypeNode()?.getText() ?? literalType(p.getInitializer()?.getText()),
          initializer: p.getInitializer()?.getText(),
          minimum: bounds.get(p.getName())?.minimum,
          maximum: bounds.get(p.getName())?.maximum,
        })),
      });
    }
  }
  return out;
}

/** True for input parameters (`MeshInput`, `VolumeInput`, ...): the host resolves their values. */
export function isInput(parameter: DeclaredParameter): boolean {
  return /^(Mesh|Volume|PointCloud|Image)Input$/.test(parameter.type);
}

const built = new Map<string, Promise<TestPlugin>>();

/**
 * Runs an example function as the host would, its inputs resolved (the specimens directory
 * for static specimens): how functions that take inputs are called at their defaults.
 */
export async function callWithInputs(plugin: string, name: string, params: Record<string, unknown> = {}): Promise<SpecimenResult> {
  let loaded = built.get(plugin);
  if (!loaded) built.set(plugin, (loaded = loadPlugin(join(PLUGINS_DIR, plugin), { specimens: join(PLUGINS_DIR, '../specimens') })));
  return (await (await loaded).call(name, params)).result as SpecimenResult;
}

/** True for parameters the schema types as number or integer. */
export function isNumeric(parameter: DeclaredParameter): boolean {
  return parameter.type === 'number' || parameter.type === 'Integer';
}

function literalType(initializer: string | undefined): string {
  if (initializer === 'true' || initializer === 'false') return 'boolean';
  if (initializer !== undefined && /^-?[\d.]/.test(initializer)) return 'number';
  return 'string';
}
