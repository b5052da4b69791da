/**
 * @module tsc-path
 * The types of tsc-path.mjs (plain JavaScript, so the type check runs before anything is compiled).
 */
/** The launcher script of the `tsc` to run for the checkout at `root` (`classic`: TypeScript 5's). */
export function tscPath(root: string, classic?: boolean): string;
