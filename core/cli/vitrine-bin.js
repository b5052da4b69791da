#!/usr/bin/env node
// The `vitrine` command as npm links it. A checkout has the TypeScript sources beside this
// file and runs them through tsx's loader (vitrine.mjs), so `npx vitrine` works right after
// `npm install` with nothing compiled; the installed package ships only the compiled output.
import { existsSync } from 'node:fs';

if (existsSync(new URL('./main.ts', import.meta.url))) await import('./vitrine.mjs');
else await import('../../build/dist/core/cli/bin.js');
