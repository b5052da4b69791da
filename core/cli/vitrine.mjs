#!/usr/bin/env node
// The `vitrine` command. The product is written in TypeScript and runs through tsx's loader,
// so an installed checkout needs no separate compile step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
