/**
 * @module load-inputs
 * Replaces each input parameter's value by its loaded result, one input after the other (in
 * the computation's room, under its signal), just before the function runs. An input's own
 * progress is passed on to the computation's, prefixed with the parameter's name.
 */
import type { InputLoaders, InputRun } from './input-types.ts';

export async function loadInputs(values: Record<string, unknown>, loaders: InputLoaders, run: InputRun): Promise<Record<string, unknown>> {
  const loaded = { ...values };
  for (const [name, load] of Object.entries(loaders)) {
    const onProgress = run.onProgress;
    loaded[name] = await load({ ...run, ...(onProgress ? { onProgress: (u) => onProgress({ ...u, text: `${name}: ${u.text}` }) } : {}) });
  }
  return loaded;
}
