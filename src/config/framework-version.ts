import semver from 'semver';
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
  const valid = semver.validRange(widenCaret(text));
  if (valid === null) {
    throw new ConfigError(`Invalid frameworkVersion in ${path}: ${JSON.stringify(text)} is not a version or a semver range (e.g. "${running}" or "^${running}")`);
  }
  if (semver.satisfies(COMPATIBLE_SERVERLESS_VERSION, valid)) return;
  if (semver.satisfies(running, valid, { includePrerelease: true })) return;
  throw new ConfigError(
    `The running fw ${running} does not satisfy frameworkVersion ${JSON.stringify(text)} in ${path}: ` +
      `install a matching version (npm install --global fw@${JSON.stringify(text)}) or change frameworkVersion`,
  );
}

/** `^0.1.0` → `>=0.1.0 <1.0.0`: a caret always spans its whole major. */
function widenCaret(range: string): string {
  return range.replace(/\^\s*(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(-[0-9A-Za-z.-]+)?/g, (_m, major: string, minor?: string, patch?: string, pre?: string) => {
    const low = `${major}.${minor && /\d/.test(minor) ? minor : 0}.${patch && /\d/.test(patch) ? patch : 0}${pre ?? ''}`;
    return `>=${low} <${Number(major) + 1}.0.0${pre ? '-0' : ''}`;
  });
}
