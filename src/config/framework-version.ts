import { ConfigError } from '../errors';
import { version as fwVersion } from '../version';

/** The Serverless Framework release fw reproduces (see ARCHITECTURE.md, "Reference behaviour"). */
export const COMPATIBLE_SERVERLESS_VERSION = '3.40.0';

/**
 * Checks `frameworkVersion` against the running fw.
 *
 * Existing serverless.yml files say `frameworkVersion: '3'` (or '^3', '>=3',
 * '3.x'): they were written for Serverless Framework v3, which fw is a drop-in
 * replacement for, and must work unchanged. So a range that Serverless
 * Framework 3.40.0 satisfies is accepted as "written for Serverless Framework
 * v3"; any other range is about fw itself and is checked against fw's own
 * version. `^X.Y.Z` means `>=X.Y.Z <X+1.0.0` (semver's caret; for X = 0 that
 * would be `<0.Y+1`, so fw widens it to the whole major like the issue asks).
 */
export function checkFrameworkVersion(range: unknown, path: string, running: string = fwVersion): void {
  if (range === undefined || range === null) return;
  if (typeof range !== 'string' && typeof range !== 'number') {
    throw new ConfigError(`Invalid frameworkVersion in ${path}: expected a version or a semver range like "^${running}", got ${JSON.stringify(range)}`);
  }
  const text = String(range).trim();
  if (wholeMajorSatisfied(text, running)) return;
  // semver is loaded here, not with the module: building its regular expressions is a few ms of every command.
  const validRange = require('semver/ranges/valid') as typeof import('semver/ranges/valid');
  const satisfies = require('semver/functions/satisfies') as typeof import('semver/functions/satisfies');
  const valid = validRange(widenCaret(text));
  if (valid === null) {
    throw new ConfigError(`Invalid frameworkVersion in ${path}: ${JSON.stringify(text)} is not a version or a semver range (e.g. "${running}" or "^${running}")`);
  }
  if (satisfies(COMPATIBLE_SERVERLESS_VERSION, valid)) return;
  if (satisfies(running, valid, { includePrerelease: true })) return;
  // fw's package is fw-deploy: npm's `fw` is an unrelated library.
  throw new ConfigError(
    `The running fw ${running} does not satisfy frameworkVersion ${JSON.stringify(text)} in ${path}: fw runs services written for Serverless Framework v3 ` +
      `(frameworkVersion "3") unchanged; change frameworkVersion, or install a fw-deploy release it allows (npm install --global fw-deploy@${JSON.stringify(text)})`,
  );
}

/**
 * The commonest ranges, a whole major (`'3'`, `'^3'`, `'3.x'`), without semver: such a range holds
 * exactly the releases of that major, so it is satisfied when Serverless v3's or fw's major is it
 * (fw's only when fw is not a pre-release: the range `>=N.0.0 <N+1.0.0-0` leaves out `N.0.0-beta`).
 * Anything else, and any range not satisfied (for the error), is semver's to answer.
 */
function wholeMajorSatisfied(range: string, running: string): boolean {
  const major = /^\^?(0|[1-9]\d*)(?:\.[x*])?$/.exec(range)?.[1];
  if (major === undefined) return false;
  const compatibleMajor = COMPATIBLE_SERVERLESS_VERSION.split('.')[0];
  const runningMajor = /^(0|[1-9]\d*)\.\d+\.\d+$/.exec(running)?.[1];
  return Number(major) === Number(compatibleMajor) || (runningMajor !== undefined && Number(major) === Number(runningMajor));
}

/** `^0.1.0` → `>=0.1.0 <1.0.0`: a caret always spans its whole major. */
function widenCaret(range: string): string {
  return range.replace(/\^\s*(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(-[0-9A-Za-z.-]+)?/g, (_m, major: string, minor?: string, patch?: string, pre?: string) => {
    const low = `${major}.${minor && /\d/.test(minor) ? minor : 0}.${patch && /\d/.test(patch) ? patch : 0}${pre ?? ''}`;
    return `>=${low} <${Number(major) + 1}.0.0${pre ? '-0' : ''}`;
  });
}
