import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runFw } from '../helpers/cli';
import { startTestCloud, TEST_ENV, type TestCloud } from '../helpers/local-cloud';

const REPO = join(__dirname, '..', '..', '..');
const { publicApp, runtimeSdkV2, v3ServiceFile } = require(join(REPO, 'scripts', 'public-apps.js')) as {
  publicApp(example: string, options?: { log?: (line: string) => void }): { dir: string; source: string };
  runtimeSdkV2(): string;
  /** A copy of the app's v1-era service file that Serverless v3 and fw accept (see scripts/public-apps.js). */
  v3ServiceFile(dir: string): string;
};

/** What `curl --data` sends: the body as a form, which a REST API passes to the function as text. */
const CURL_DATA = { 'content-type': 'application/x-www-form-urlencoded' };

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
  const config = v3ServiceFile(dir);
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

apps('aws-node-rest-api-with-dynamodb (the runtime’s aws-sdk v2, as on nodejs16.x and older) creates, lists, reads, updates and deletes todos as its README says', async (context) => {
  const { dir } = publicApp('aws-node-rest-api-with-dynamodb');
  // The app ships no aws-sdk (its package.json lists uuid only): Lambda's runtime provided it.
  assert.equal(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies, { uuid: '^2.0.3' });
  const previous = process.env.FW_LOCAL_NODE_MODULES;
  process.env.FW_LOCAL_NODE_MODULES = runtimeSdkV2();
  try {
    const deployed = await runFw(['deploy', '--local', '--config', v3ServiceFile(dir)], dir, { ...TEST_ENV, FW_LOCAL_PORT: String(context.t.cloud.port) });
    assert.is(deployed.code, 0, deployed.stderr);
    const todos = endpointOf(deployed.stdout, 'POST', '/todos');
    const call = async (method: string, url: string, body?: string) => {
      const response = await fetch(url, { method, headers: body === undefined ? {} : CURL_DATA, body });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    // curl -X POST …/todos --data '{ "text": "Learn Serverless" }'
    const created = await call('POST', todos, '{ "text": "Learn Serverless" }');
    assert.is(created.status, 200);
    const id = String(created.body.id);
    assert.equal(created.body, { id, text: 'Learn Serverless', checked: false, createdAt: created.body.createdAt, updatedAt: created.body.createdAt });
    assert.equal(await call('GET', todos), { status: 200, body: [created.body] as unknown as Record<string, unknown> });
    assert.equal(await call('GET', `${todos}/${id}`), { status: 200, body: created.body });
    // curl -X PUT …/todos/<id> --data '{ "text": "Learn Serverless", "checked": true }'
    const updated = await call('PUT', `${todos}/${id}`, '{ "text": "Learn Serverless", "checked": true }');
    assert.equal([updated.status, updated.body.checked, updated.body.text], [200, true, 'Learn Serverless']);
    assert.equal(await call('DELETE', `${todos}/${id}`), { status: 200, body: {} });
    assert.equal(await call('GET', todos), { status: 200, body: [] as unknown as Record<string, unknown> });
  } finally {
    if (previous === undefined) delete process.env.FW_LOCAL_NODE_MODULES;
    else process.env.FW_LOCAL_NODE_MODULES = previous;
  }
});

apps.run();
