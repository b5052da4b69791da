/**
 * @module tsc-path
 * Which `tsc` the tools run: TypeScript's native compiler (the `typescript-native` dev
 * dependency, version 7: the same checks and declarations in a fraction of the CPU, on every
 * core) where its binary for this platform is installed, else TypeScript 5's. ts-morph, which
 * reads plugin signatures, keeps TypeScript 5's API either way.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

/** The launcher script of the `tsc` to run for the checkout at `root` (`classic`: TypeScript 5's). */
export function tscPath(root, classic = false) {
  const require = createRequire(path.join(root, 'package.json'));
  if (!classic) {
    try {
      const launcher = path.join(path.dirname(require.resolve('typescript-native/package.json')), 'bin', 'tsc');
      // The launcher runs a binary shipped in a package of its own per platform (an optional dependency).
      createRequire(launcher).resolve(`@typescript/typescript-${process.platform}-${process.arch}/package.json`);
      return launcher;
    } catch {
      // Not installed for this platform: TypeScript 5 below.
    }
  }
  return require.resolve('typescript/bin/tsc');
}
