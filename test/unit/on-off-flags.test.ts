/**
 * Every on/off flag reads its value one way, from the command line or from `VITRINE_<NAME>`:
 * on, true, 1, yes or off, false, 0, no (any case); anything else is refused with the flag's
 * name, never read as off.
 */
import { describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../core/cli/serve-options.ts';

const options = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseServeOptions(argv, env).host_options;

describe('on/off flags', () => {
  it('reads a bare boolean flag and its VITRINE_ variable alike', () => {
    expect(options(['--relay', '--no-viewer'])).toMatchObject({ relay: true, viewer: false });
    expect(options([])).toMatchObject({ relay: false, viewer: true });
    for (const on of ['on', 'TRUE', '1', 'yes'])
      expect(options([], { VITRINE_RELAY: on, VITRINE_NO_VIEWER: on })).toMatchObject({ relay: true, viewer: false });
    for (const off of ['off', 'False', '0', 'no'])
      expect(options([], { VITRINE_RELAY: off, VITRINE_NO_VIEWER: off })).toMatchObject({ relay: false, viewer: true });
    expect(options([], { VITRINE_CLIENT_PROFILES: 'Off', VITRINE_UPLOADS: 'on' })).toMatchObject({ clientProfiles: false, uploads: true });
  });

  it('refuses a word that is neither on nor off, naming the flag', () => {
    expect(() => options([], { VITRINE_RELAY: 'maybe' })).toThrow("--relay must be on or off, got 'maybe'");
    expect(() => options([], { VITRINE_NO_VIEWER: 'sometimes' })).toThrow(/--no-viewer must be on or off/);
    expect(() => options(['--client-profiles', 'perhaps'])).toThrow(/--client-profiles must be on or off/);
  });
});
