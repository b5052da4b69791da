/**
 * @module create-project
 * The ts-morph Project the schema generator reads signatures with. It uses our strict
 * compiler options (without strictNullChecks `T | undefined` is not a union and the optional
 * parser breaks; ts-morph issue #258) and maps `vitrine` to the SDK by absolute path so the
 * mapping holds for plugins anywhere on disk. Only the plugin entry files are added; the
 * program pulls in what they import, nothing else of the repository.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Project, ts } from 'ts-morph';
import { PACKAGE_ROOT, SDK_INDEX } from './sdk-paths.ts';

/**
 * The `@types` folder holding Node's types, looked up from the working directory (a plugin
 * project) and then from vitrine's own package; null when neither has them. Plugins run in
 * Node worker threads, so Node's globals (`setImmediate`, `Buffer`) type-check when the types
 * are installed, and are unknown names otherwise.
 */
export function nodeTypeRoot(): string | null {
  for (const from of [process.cwd(), PACKAGE_ROOT]) {
    try {
      const manifest = createRequire(path.join(from, 'package.json')).resolve('@types/node/package.json');
      return path.dirname(path.dirname(manifest));
    } catch {
      // not installed there
    }
  }
  return null;
}

/**
 * Compiler options for reading plugin sources. Plugins run in Node worker threads, so Node's
 * types describe their globals; the DOM's would let `document` or `window` type-check and then
 * throw when the plugin runs, and reading its 1 MB of declarations costs every build about 0.4 s
 * of CPU. Without Node's types the DOM's stay, the nearest description of the web globals a
 * worker shares (`console`, `TextEncoder`, `URL`), so plugin code still type-checks.
 * `nodeTypes: false` leaves both out (the language alone: see plugin-project.ts).
 */
export function buildCompilerOptions(nodeTypes = true): ts.CompilerOptions {
  const typeRoot = nodeTypes ? nodeTypeRoot() : null;
  return {
    target: ts.ScriptTarget.ES2022,
    lib: typeRoot || !nodeTypes ? ['lib.es2023.d.ts'] : ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.ESNext,
    // Bundler resolution accepts what esbuild accepts (with or without `.ts` extensions).
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    ...(typeRoot ? { typeRoots: [typeRoot], types: ['node'] } : { types: [] }),
    paths: { vitrine: [SDK_INDEX] },
  };
}

/** Creates an empty Project; add plugin entries with `addSourceFileAtPath`. */
export function createBuildProject(nodeTypes = true): Project {
  return new Project({
    compilerOptions: buildCompilerOptions(nodeTypes),
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
  });
}
