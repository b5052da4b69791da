#!/usr/bin/env node
/**
 * @module bin
 * The `vitrine` command of the compiled package (`build/dist/core/cli/bin.js`). In a checkout,
 * `core/cli/vitrine.mjs` runs the same `main` from the TypeScript sources.
 */
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
