#!/usr/bin/env node
// The `vitrine` command as npm links it. A checkout has the TypeScript sources beside this
// file and runs them through tsx's loader (vitrine.mjs), so `npx vitrine` works right after
// `npm install` with nothing compiled; once `npm start` or `npm run compile` has compiled them
// and no source changed since (the compile's input stamp), it runs the compiled command, which
// starts in a fraction of the time. The installed package ships only the compiled output.
import { existsSync } from 'node:fs';

/** Whether this checkout's build/dist was compiled from the sources as they are now. */
async function compiledIsCurrent() {
  if (process.env.VITRINE_FROM_SOURCES === '1' || !existsSync(new URL('../../build/dist/core/cli/bin.js', import.meta.url))) return false;
  const stamp = new URL('../../build/tools/compile/input-stamp.mjs', import.meta.url);
  if (!existsSync(stamp)) return false;
  const { COMPILE_STAMP, compileInputs, isCurrent, stampOf } = await import(stamp.href);
  return isCurrent(COMPILE_STAMP, stampOf(compileInputs()));
}

if (!existsSync(new URL('./main.ts', import.meta.url)) || (await compiledIsCurrent())) await import('../../build/dist/core/cli/bin.js');
else await import('./vitrine.mjs');
