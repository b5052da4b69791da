/**
 * @module version-order
 * Which of two plugin versions is the later, as people number them: dotted numbers compared
 * one by one (`1.10.0` after `1.9.2`), and a pre-release (`2.0.0-rc.1`, Python's `2.0.0rc1`)
 * before its release. Versions that do not start with a number are not ordered at all, so a
 * host never calls a change of one of them a step back.
 */

/** The dotted numbers a version starts with, and whether a pre-release follows them; null when it starts with none. */
function partsOf(version: string): { numbers: number[]; pre: boolean } | null {
  const match = /^v?(\d+(?:\.\d+)*)(.*)$/.exec(version.trim());
  if (!match) return null;
  const rest = match[2]!.replace(/^\+.*$/, '');
  return { numbers: match[1]!.split('.').map(Number), pre: rest !== '' && !/^\.?post/.test(rest) };
}

/** Whether `version` is earlier than `than` (false when either is not a numbered version). */
export function isEarlier(version: string, than: string): boolean {
  const a = partsOf(version);
  const b = partsOf(than);
  if (!a || !b) return false;
  for (let i = 0; i < Math.max(a.numbers.length, b.numbers.length); i++) {
    const x = a.numbers[i] ?? 0;
    const y = b.numbers[i] ?? 0;
    if (x !== y) return x < y;
  }
  return a.pre && !b.pre;
}
