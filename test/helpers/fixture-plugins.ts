/**
 * Builds test/fixtures/plugins with the real `vitrine build` CLI into a temp folder,
 * once per test process.
 */
import { builtFixture } from './built-fixture.ts';

/** The plugins directory holding the built fixture bundles. */
export function fixturePluginsDir(): Promise<string> {
  return builtFixture('plugins');
}
