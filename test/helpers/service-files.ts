import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseYaml } from '../../src/formats/yaml';

export const ROOT = join(__dirname, '..', '..', '..');
const NAMES = ['fw.yml', 'fw.yaml', 'fw.json', 'serverless.yml', 'serverless.yaml', 'serverless.json'];

/**
 * Fixtures fw does not take as they are (besides those whose expected/error.txt says why), each
 * with the problem the JSON Schema reports for it.
 */
export const NOT_ACCEPTED: Record<string, string> = {
  // A bare `- alexaSkill`: packaged with a deprecation warning, as v3 does; the JSON Schema (like v3's) leaves it out.
  'test/fixtures/events/alexaSkill-no-app-id/serverless.yml': '/functions/mySkill/events/0: must be object',
  // fw warns "at resources.Resources.HelloLambdaFunction.Type: expected a value", as v3 does.
  'test/fixtures/golden/resources-overrides/serverless.yml': "/resources/Resources/HelloLambdaFunction: must have required property 'Type'",
  // `functions:` as a list of maps: fw merges it into one map before validating, as v3 does; the JSON Schema describes the map.
  'test/fixtures/golden/functions-list-form/serverless.yml': '/functions: must be object',
  // `resources:` as a list of blocks, merged into one as v3 merges them; the second block's Param has no Type of its own.
  'test/fixtures/golden/resources-list-form/serverless.yml': '/resources: must be object',
  // Plugins add these keys and event types: fw validates them once the plugin is loaded; `fw schema` knows fw's own.
  'test/fixtures/plugins/event-type/fw.yml': '/functions/report/events/0: must NOT have additional properties (cronJob)',
  'test/fixtures/plugins/v3-service/serverless.yml': '/functions/reader: must NOT have additional properties (iamRoleStatementsInherit)',
  'test/fixtures/plugins/popular/appsync/serverless.yml': '/: must NOT have additional properties (appSync)',
  'test/fixtures/plugins/popular/appsync-pipeline/serverless.yml': '/: must NOT have additional properties (appSync)',
  'test/fixtures/plugins/popular/appsync-includes/serverless.yml': '/: must NOT have additional properties (appSync)',
  'test/fixtures/plugins/popular/lift/serverless.yml': '/: must NOT have additional properties (constructs)',
  'test/fixtures/plugins/popular/lift-references/serverless.yml': '/: must NOT have additional properties (constructs)',
  'test/fixtures/plugins/popular/lift-everywhere/serverless.yml': '/: must NOT have additional properties (constructs)',
  'test/fixtures/plugins/popular/step-functions/serverless.yml': '/: must NOT have additional properties (stepFunctions)',
};

/** Every YAML/JSON service file of the examples, templates and test fixtures (paths from the repository root), with whether fw accepts it. */
export function serviceFiles(): Array<{ file: string; accepted: boolean }> {
  const found: Array<{ file: string; accepted: boolean }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'expected' || entry.name === '.serverless') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (NAMES.includes(entry.name)) {
        const file = relative(ROOT, path);
        const refused = existsSync(join(dir, 'expected', 'error.txt')) || Object.hasOwn(NOT_ACCEPTED, file);
        found.push({ file, accepted: !refused });
      }
    }
  };
  for (const folder of ['examples', 'templates', join('test', 'fixtures')]) walk(join(ROOT, folder));
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

/** A service file's raw content, CloudFormation tags (`!Ref X`) read as `{ Ref: X }`. */
export function readServiceFile(file: string): unknown {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, file);
}
