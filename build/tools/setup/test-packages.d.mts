/**
 * @module test-packages
 * The types of test-packages.mjs (plain JavaScript, so it runs before anything is compiled).
 */
export interface Need {
  packages: string[];
  present: (env: NodeJS.ProcessEnv) => boolean;
}
export declare const NEEDS: Need[];
export declare function hasCommand(name: string, env?: NodeJS.ProcessEnv, also?: string[]): boolean;
export declare function missingPackages(needs?: Need[], env?: NodeJS.ProcessEnv): string[];
export declare function missingLine(packages: string[]): string;
export declare function setUp(options: {
  needs?: Need[];
  env?: NodeJS.ProcessEnv;
  mayInstall: boolean;
  install: (packages: string[]) => number;
  say: (line: string) => void;
}): number;
