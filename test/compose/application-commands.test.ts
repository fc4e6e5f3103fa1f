import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApplication } from '../../src/compose/runner';
import { expandServiceCommand } from '../../src/cli/compose';
import { fw, outcomes, TOPIC_SERVICE, writeApplication } from './application-fixture';
import { LOCAL_CREDENTIALS, startTestCloud, type TestCloud } from '../helpers/local-cloud';

interface Context {
  test: TestCloud;
  app: string;
  env: Record<string, string | undefined>;
}

const CREDENTIALS = { AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey };
const storedOutputs = (app: string) => JSON.parse(readFileSync(join(app, '.serverless', 'compose-outputs-dev.json'), 'utf8'));

const commands = suite<Context>('compose commands across the application');

commands.before(async context => {
  context.env = Object.fromEntries(Object.keys(CREDENTIALS).map(key => [key, process.env[key]]));
  Object.assign(process.env, CREDENTIALS);
  context.test = await startTestCloud();
  context.app = mkdtempSync(join(tmpdir(), 'fw-compose-commands-'));
  writeApplication(context.app);
  const deployed = await runApplication('deploy', { file: join(context.app, 'fw-compose.yml'), endpoint: context.test.cloud.url });
  assert.equal(deployed.runs.map(run => run.status), ['deployed', 'deployed', 'deployed']);
});

commands.after(async context => {
  for (const [key, value] of Object.entries(context.env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await context.test.stop();
  rmSync(context.app, { recursive: true, force: true });
});

commands('fw diff previews every service: exit 0 when none would change', async ({ test, app }) => {
  const { code, stdout, stderr } = await fw(['diff', '--endpoint-url', test.cloud.url], app);
  assert.equal({ code, stderr, outcomes: outcomes(stdout).sort() }, { code: 0, stderr: '', outcomes: ['api no changes', 'queue no changes', 'topic no changes'] });
});

commands('fw diff exits 2 when one service would change, its changes prefixed with its name', async ({ test, app }) => {
  writeFileSync(join(app, 'topic', 'fw.yml'), TOPIC_SERVICE('alerts-renamed'));
  try {
    const { code, stdout, stderr } = await fw(['diff', '--endpoint-url', test.cloud.url], app);
    assert.equal({ code, stderr, outcomes: outcomes(stdout).sort() }, { code: 2, stderr: '', outcomes: ['api no changes', 'queue no changes', 'topic 1 resource change'] });
    assert.ok(stdout.includes('topic › Changes to stack compose-topic-dev:\ntopic › ~ Alerts (AWS::SNS::Topic): TopicName (replacement)\n'), stdout);
    assert.ok(stdout.includes('api › No changes: deploying would leave stack compose-api-dev as it is.\n'), stdout);
  } finally {
    writeFileSync(join(app, 'topic', 'fw.yml'), TOPIC_SERVICE('alerts'));
  }
});

commands('fw outputs prints every service\'s stored outputs as a table, and as JSON with --json', async ({ app }) => {
  const stored = storedOutputs(app);
  const json = await fw(['outputs', '--json'], app);
  assert.equal({ code: json.code, outputs: JSON.parse(json.stdout) }, { code: 0, outputs: stored });
  const table = await fw(['outputs', '--service', 'queue'], app);
  const bucket = stored.queue.ServerlessDeploymentBucketName;
  assert.equal(table, {
    code: 0,
    stderr: '',
    stdout:
      `service  output                          value\n` +
      `queue    ServerlessDeploymentBucketName  ${bucket}\n` +
      `         QueueUrl                        ${stored.queue.QueueUrl}\n`,
  });
});

commands('fw outputs for a stage with nothing stored says so for each service', async ({ app }) => {
  const placeholder = 'not stored for this stage (run fw deploy or fw refresh-outputs)';
  assert.equal(await fw(['outputs', '--stage', 'prod'], app), {
    code: 0,
    stderr: '',
    stdout: `service  output  value\nqueue    -       ${placeholder}\napi      -       ${placeholder}\ntopic    -       ${placeholder}\n`,
  });
});

commands('fw outputs in a service folder reads its stack\'s outputs', async ({ test, app }) => {
  const { queue } = storedOutputs(app);
  const { code, stdout, stderr } = await fw(['outputs', '--json', '--endpoint-url', test.cloud.url], join(app, 'queue'));
  assert.equal({ code, stderr, outputs: JSON.parse(stdout) }, { code: 0, stderr: '', outputs: queue });
});

commands('fw refresh-outputs reads the stacks\' outputs back into the store', async ({ test, app }) => {
  const stored = storedOutputs(app);
  writeFileSync(join(app, '.serverless', 'compose-outputs-dev.json'), '{}\n');
  const { code, stdout, stderr } = await fw(['refresh-outputs', '--endpoint-url', test.cloud.url], app);
  assert.equal({ code, stderr, outcomes: outcomes(stdout).sort() }, { code: 0, stderr: '', outcomes: ['api refreshed', 'queue refreshed', 'topic refreshed'] });
  assert.equal(storedOutputs(app), stored);
});

commands('fw refresh-outputs in a service folder says it needs a compose file', async ({ test, app }) => {
  const { code, stdout, stderr } = await fw(['refresh-outputs', '--endpoint-url', test.cloud.url], join(app, 'api'));
  assert.equal({ code, stdout, stderr }, {
    code: 1,
    stdout: '',
    stderr: 'Error: fw refresh-outputs works on a compose file (fw-compose.yml or serverless-compose.yml): run it in the application folder\n',
  });
});

commands('fw logs in a compose folder needs --service, and names the services', async ({ test, app }) => {
  const { code, stdout, stderr } = await fw(['logs', '-f', 'queue', '--endpoint-url', test.cloud.url], app);
  assert.equal({ code, stdout, stderr }, {
    code: 1,
    stdout: '',
    stderr: 'Error: fw logs runs on one service of the application in fw-compose.yml: name it with --service (queue, api, topic)\n',
  });
});

commands('fw logs --service prints that service\'s function log, its params from the stored outputs', async ({ test, app }) => {
  const { api } = storedOutputs(app);
  const response = await fetch(`${api.HttpApiUrl}/queue`);
  assert.equal(response.status, 200);
  const { code, stdout, stderr } = await fw(['logs', '--service', 'api', '-f', 'queue', '--endpoint-url', test.cloud.url], app);
  assert.equal({ code, stderr }, { code: 0, stderr: '' });
  assert.match(stdout, /^\d{4}-\d\d-\d\dT[\d:.]+Z\tSTART RequestId: /m);
});

commands('Serverless Compose\'s service:command form runs the command on that service', async ({ test, app }) => {
  const argv = expandServiceCommand(['api:info', '--endpoint-url', test.cloud.url], app);
  assert.equal(argv, ['info', '--endpoint-url', test.cloud.url, '--service', 'api']);
  const { code, stdout, stderr } = await fw(argv, app);
  assert.equal({ code, stderr, outcomes: outcomes(stdout) }, { code: 0, stderr: '', outcomes: ['api described'] });
  // Not a service of the compose file, or no compose file: left as it is (the CLI then says what is unknown).
  assert.equal(expandServiceCommand(['web:deploy'], app), ['web:deploy']);
  assert.equal(expandServiceCommand(['api:deploy'], join(app, 'api')), ['api:deploy']);
});

commands('--local with --endpoint-url is one line, in a compose folder as in a service folder', async ({ test, app }) => {
  const expected = { code: 1, stdout: '', stderr: `Error: --local and --endpoint-url ${test.cloud.url} name two different clouds: give one (--local finds fw's local cloud by itself)\n` };
  assert.equal(await fw(['deploy', '--local', '--endpoint-url', test.cloud.url], app), expected);
  assert.equal(await fw(['info', '--local', '--endpoint-url', test.cloud.url], join(app, 'topic')), expected);
});

commands.run();
