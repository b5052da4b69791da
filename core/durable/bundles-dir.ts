/**
 * @module bundles-dir
 * Where in a data folder a lone host keeps the plugin versions it serves side by side (one
 * folder per bundle id, and the index of which each plugin keeps): the host writes it, and
 * `vitrine backup` copies it with the rest.
 */
export const BUNDLES_DIR = 'bundles';
