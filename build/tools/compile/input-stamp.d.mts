/**
 * @module input-stamp
 * The types of input-stamp.mjs (plain JavaScript, so checking a stamp loads no TypeScript).
 */
export declare const REPO_ROOT: string;
export declare const COMPILE_STAMP: string;
export declare const PLUGINS_STAMP: string;
export declare function compileStampOf(root?: string): string;
export declare function pluginsStampOf(root?: string): string;
export declare function compileInputs(root?: string): string[];
export declare function pluginInputs(root?: string): string[];
export declare function stampOf(files: readonly string[]): string;
export declare function isCurrent(stampFile: string, stamp: string): boolean;
export declare function writeStamp(stampFile: string, stamp: string): void;
