/**
 * @module prepare-start
 * The types of prepare-start.mjs (plain JavaScript, so `npm start` loads no TypeScript to decide).
 */
export declare function prepareStart(root?: string, run?: (args: string[]) => number, say?: (line: string) => void): number;
