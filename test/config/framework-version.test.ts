import semver from 'semver';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkFrameworkVersion } from '../../src/config/framework-version';
import { loadService } from '../../src/service/load';
import { version } from '../../src/version';
import { errorOf, tempService } from './helpers';

const frameworkVersion = suite('checkFrameworkVersion');

frameworkVersion('accepts the exact running version', () => {
  checkFrameworkVersion('0.1.0', 'fw.yml', '0.1.0');
});

frameworkVersion('accepts a caret range the version is in: ^X.Y.Z is >=X.Y.Z <X+1.0.0', () => {
  checkFrameworkVersion('^0.1.0', 'fw.yml', '0.1.0');
  checkFrameworkVersion('^0.1.0', 'fw.yml', '0.9.3');
  checkFrameworkVersion('^1.2.0', 'fw.yml', '1.9.0');
});

frameworkVersion('refuses a caret range the version is out of, naming both and how to install', async () => {
  assert.is(
    await errorOf(() => checkFrameworkVersion('^1.0.0', 'fw.yml', '0.1.0')),
    'The running fw 0.1.0 does not satisfy frameworkVersion "^1.0.0" in fw.yml: fw runs services written for Serverless Framework v3 (frameworkVersion "3") unchanged; change frameworkVersion, or install a fw-deploy release it allows (npm install --global fw-deploy@"^1.0.0")',
  );
  assert.match(await errorOf(() => checkFrameworkVersion('^0.2.0', 'fw.yml', '0.1.0')), /fw 0\.1\.0 does not satisfy frameworkVersion "\^0\.2\.0"/);
  assert.match(await errorOf(() => checkFrameworkVersion('0.0.9', 'fw.yml', '0.1.0')), /fw 0\.1\.0 does not satisfy/);
});

frameworkVersion('accepts ranges written for Serverless Framework v3, which fw is compatible with', () => {
  for (const range of ['3', '^3', '>=3', '3.x', '^3.0.0', '>=2.0.0 <4', 3]) checkFrameworkVersion(range, 'serverless.yml', '0.1.0');
});

frameworkVersion('refuses ranges for other Serverless Framework majors', async () => {
  assert.match(await errorOf(() => checkFrameworkVersion('2', 'serverless.yml', '0.1.0')), /does not satisfy frameworkVersion "2"/);
  assert.match(await errorOf(() => checkFrameworkVersion('^4.0.0', 'serverless.yml', '0.1.0')), /does not satisfy frameworkVersion "\^4\.0\.0"/);
});

frameworkVersion('an invalid range is an error', async () => {
  assert.is(
    await errorOf(() => checkFrameworkVersion('banana', 'fw.yml', '0.1.0')),
    'Invalid frameworkVersion in fw.yml: "banana" is not a version or a semver range (e.g. "0.1.0" or "^0.1.0")',
  );
  assert.match(await errorOf(() => checkFrameworkVersion({ v: 1 }, 'fw.yml', '0.1.0')), /^Invalid frameworkVersion in fw\.yml: expected a version or a semver range/);
});

frameworkVersion('a whole major (3, ^3, 3.x) is answered without semver, as semver answers it', () => {
  // semver's answer, with a caret spanning its whole major as fw widens it (`^3.x` is `>=3.0.0 <4.0.0`).
  const semverAnswer = (range: string, running: string): boolean => {
    const major = Number(range.slice(1, 2));
    const valid = semver.validRange(range.startsWith('^') ? `>=${major}.0.0 <${major + 1}.0.0` : range);
    return valid !== null && (semver.satisfies('3.40.0', valid) || semver.satisfies(running, valid, { includePrerelease: true }));
  };
  const accepts = (range: string, running: string): boolean => {
    try {
      checkFrameworkVersion(range, 'fw.yml', running);
      return true;
    } catch {
      return false;
    }
  };
  const answers: string[] = [];
  const expected: string[] = [];
  for (const range of ['3', '^3', '3.x', '3.*', '^3.x', '03', '2', '4', '0', '^0', '1', '1.x']) {
    for (const running of ['0.1.0', '1.2.0', '1.0.0-beta.1', '4.0.0']) {
      answers.push(`${range} on ${running}: ${accepts(range, running)}`);
      expected.push(`${range} on ${running}: ${semverAnswer(range, running)}`);
    }
  }
  assert.equal(answers, expected);
});

frameworkVersion('no frameworkVersion is fine', () => {
  checkFrameworkVersion(undefined, 'fw.yml', '0.1.0');
});

frameworkVersion('loadService checks it on every load, against the running fw', async () => {
  const folder = tempService({ 'fw.yml': 'service: app\nframeworkVersion: ^9.0.0\nprovider:\n  name: aws\n' });
  try {
    assert.match(await errorOf(() => loadService({ cwd: folder.dir })), new RegExp(`^The running fw ${version.replace(/\./g, '\\.')} does not satisfy frameworkVersion "\\^9\\.0\\.0" in fw\\.yml`));
  } finally {
    folder.cleanup();
  }
});

frameworkVersion.run();
