/**
 * @module reaction-diffusion
 * Turing patterns from the Gray-Scott model: a deliberately heavy, honest computation (tens
 * of thousands of grid updates) that reports progress at every step and can be cancelled.
 */
import type { ImageResult, Integer, ProgressReporter, SpecimenDeclaration } from 'vitrine';
import { advance, PRESETS, seedState, type PresetName } from './gray-scott.ts';

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Grows a Gray-Scott reaction-diffusion pattern from a few random drops and returns it as an
 * RGB uint8 image. The run is split into `steps`; after each one a progress message is
 * reported ("step 7/40: 1400 iterations"), the event loop gets a turn, and an aborted signal
 * stops the run. The default settings take a few seconds.
 *
 * @param preset Which pattern to grow (sets the feed and kill rates).
 * @param size Grid cells along each side (the image is size × size).
 * @param steps Number of progress steps.
 * @param iterations_per_step Simulation iterations in each step.
 * @param seed Random seed for the initial drops.
 * @minimum size 16
 * @maximum size 384
 * @minimum steps 1
 * @maximum steps 100
 * @minimum iterations_per_step 1
 * @maximum iterations_per_step 250
 * @minimum seed 0
 * @maximum seed 1000000
 */
export async function gray_scott_pattern(
  preset: PresetName = 'coral',
  size: Integer = 256,
  steps: Integer = 32,
  iterations_per_step: Integer = 250,
  seed: Integer = 5,
  progress?: ProgressReporter,
  signal?: AbortSignal,
): Promise<ImageResult> {
  signal?.throwIfAborted();
  const { feed, kill } = PRESETS[preset];
  const state = seedState(size, seed);
  for (let step = 1; step <= steps; step++) {
    advance(state, iterations_per_step, feed, kill);
    progress?.report(`step ${step}/${steps}: ${step * iterations_per_step} iterations`, step / (steps + 1));
    await yieldToLoop();
    signal?.throwIfAborted();
  }
  const data = new Uint8Array(size * size * 3);
  for (let i = 0; i < size * size; i++) {
    // V is the pattern: night blue where it is absent, through teal to warm cream where it peaks.
    const t = Math.min(1, Math.max(0, state.v[i]! * 2.8));
    const low = Math.min(1, t * 2), high = Math.max(0, t * 2 - 1);
    data[i * 3] = Math.round(12 + 20 * low + 218 * high);
    data[i * 3 + 1] = Math.round(24 + 120 * low + 90 * high);
    data[i * 3 + 2] = Math.round(48 + 100 * low + 40 * high);
  }
  progress?.report('colouring image', 1);
  return { type: 'image', width: size, height: size, channels: 3, dtype: 'uint8', data };
}

export const specimens: SpecimenDeclaration[] = [
  {
    id: 'gray-scott-coral',
    function: 'gray_scott_pattern',
    display_name: 'Reaction-diffusion coral',
    description: 'A Turing pattern grown live from the Gray-Scott model; takes a few seconds and reports every step.',
    tags: ['image', 'pattern formation', 'chemistry', 'slow', 'progress'],
    thumbnail: './thumbnails/gray-scott-coral.png',
    story:
      'In 1952 Alan Turing showed that two chemicals which react and diffuse at different speeds can turn a uniform soup into stripes and spots. Here one ' +
      'chemical is fed in, a second one eats it to multiply, and both spread out; from a few random drops the pattern branches like coral until it fills ' +
      'the plate. Similar mechanisms are thought to paint zebrafish stripes and space the hair follicles of mice. This one is computed on demand, tens of ' +
      'thousands of grid updates, so watch the progress and feel free to cancel.',
  },
];
