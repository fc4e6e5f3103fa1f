import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runFw } from '../helpers/cli';
import { startTestCloud, TEST_ENV, type TestCloud } from '../helpers/local-cloud';

const REPO = join(__dirname, '..', '..', '..');
const { publicApp } = require(join(REPO, 'scripts', 'public-apps.js')) as {
  publicApp(example: string, options?: { log?: (line: string) => void }): { dir: string; source: string };
};

/**
 * Apps nobody here wrote, deployed with `fw deploy --local` and driven as their READMEs say.
 * Whose is what: the apps are Serverless, Inc.'s public examples as the npm package
 * serverless-sam@0.2.0 carries them (scripts/public-apps.js); their dependencies (aws-sdk v2
 * included) come from the npm registry through `npm install`, as the READMEs say. Nothing of
 * them is rewritten.
 */
const apps = suite<{ t: TestCloud }>('public example apps run unchanged in the local cloud');

apps.before(async (context) => {
  context.t = await startTestCloud();
});

apps.after(async (context) => {
  await context.t.stop();
});

function endpointOf(stdout: string, method: string, path: string): string {
  const line = stdout.split('\n').find((l) => l.trim().startsWith(`${method} - `) && l.trim().endsWith(path));
  assert.ok(line, `no "${method} … ${path}" endpoint in:\n${stdout}`);
  return line!.trim().slice(`${method} - `.length);
}

apps('aws-node-graphql-api-with-dynamodb (aws-sdk v2 DocumentClient behind a REST API) answers its README’s queries', async (context) => {
  const { dir } = publicApp('aws-node-graphql-api-with-dynamodb');
  // The app requires its own aws-sdk v2, which ignores AWS_ENDPOINT_URL: on AWS it reaches DynamoDB's hostname.
  assert.match(readFileSync(join(dir, 'handler.js'), 'utf8'), "const AWS = require('aws-sdk');");
  assert.match(readFileSync(join(dir, 'node_modules', 'aws-sdk', 'package.json'), 'utf8'), /"version": "2\./);
  // Written in 2017 for Serverless v1: `${self:provider.stage}` and `self:provider.region` resolved to
  // v1's defaults there, and resolve to nothing in Serverless v3 and fw (both refuse the file). So
  // the service file is deployed with those two values written out, through --config; the app's own
  // serverless.yml, handler and package.json are untouched.
  const config = 'serverless.fw-test.yml';
  writeFileSync(join(dir, config), readFileSync(join(dir, 'serverless.yml'), 'utf8').replace(/^provider:\n/m, 'provider:\n  stage: dev\n  region: us-east-1\n'));
  const deployed = await runFw(['deploy', '--local', '--config', config], dir, { ...TEST_ENV, FW_LOCAL_PORT: String(context.t.cloud.port) });
  assert.is(deployed.code, 0, deployed.stderr);
  const url = endpointOf(deployed.stdout, 'GET', '/query');
  // The README: curl -G …/dev/query --data-urlencode 'query={greeting(firstName: "Jeremy")}'
  const query = async (text: string) => {
    const response = await fetch(`${url}?${new URLSearchParams({ query: text })}`);
    return { status: response.status, body: await response.text() };
  };
  assert.equal(await query('{greeting(firstName: "Jeremy")}'), { status: 200, body: '{"data":{"greeting":"Hello, Jeremy."}}' });
  assert.equal(await query('mutation {changeNickname(firstName: "Jeremy", nickname: "Jer")}'), { status: 200, body: '{"data":{"changeNickname":"Jer"}}' });
  assert.equal(await query('{greeting(firstName: "Jeremy")}'), { status: 200, body: '{"data":{"greeting":"Hello, Jer."}}' });
});

apps.run();
