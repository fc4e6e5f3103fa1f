import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeStackEventsCommand, ListStacksCommand } from '@aws-sdk/client-cloudformation';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApplication } from '../../src/compose/runner';
import { COMPOSE_FILE, fw, outcomes, TOPIC_SERVICE, writeApplication } from './application-fixture';
import { startTestCloud, type TestCloud } from '../local/helpers';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };

interface Context {
  test: TestCloud;
  work: string;
  app: string;
  env: Record<string, string | undefined>;
}

async function liveStacks(test: TestCloud): Promise<string[]> {
  const listed = await test.cfn.send(new ListStacksCommand({}));
  return (listed.StackSummaries ?? []).filter(stack => stack.StackStatus !== 'DELETE_COMPLETE').map(stack => stack.StackName!).sort();
}

const compose = suite<Context>('compose application');

compose.before(async context => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-compose-'));
  // The SDK reads credentials from the environment; the local cloud takes any.
  context.env = Object.fromEntries(Object.keys(CREDENTIALS).map(key => [key, process.env[key]]));
  Object.assign(process.env, CREDENTIALS);
  context.test = await startTestCloud(join(context.work, 'cloud'));
  context.app = join(context.work, 'app');
  writeApplication(context.app);
});

compose.after(async context => {
  for (const [key, value] of Object.entries(context.env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await context.test.stop();
  rmSync(context.work, { recursive: true, force: true });
});

compose('deploy runs the queue before the API that reads its URL, and the independent topic alongside', async context => {
  const result = await runApplication('deploy', { file: join(context.app, 'fw-compose.yml'), endpoint: context.test.cloud.url });
  assert.equal(result.runs.map(run => `${run.service}:${run.status}`).sort(), ['api:deployed', 'queue:deployed', 'topic:deployed']);
  assert.equal(result.timeline.slice(0, 2), [{ service: 'queue', event: 'start' }, { service: 'topic', event: 'start' }]);
  const apiStart = result.timeline.findIndex(entry => entry.service === 'api' && entry.event === 'start');
  const queueEnd = result.timeline.findIndex(entry => entry.service === 'queue' && entry.event === 'end');
  assert.ok(apiStart > queueEnd, JSON.stringify(result.timeline));

  const stored = JSON.parse(readFileSync(join(context.app, '.serverless', 'compose-outputs-dev.json'), 'utf8'));
  const queueUrl = stored.queue.QueueUrl as string;
  assert.match(queueUrl, /\/compose-queue-dev-JobsQueue-/);
  const response = await fetch(`${stored.api.HttpApiUrl}/queue`);
  assert.equal(await response.json(), { queueUrl });
  assert.equal(await liveStacks(context.test), ['compose-api-dev', 'compose-queue-dev', 'compose-topic-dev']);
});

/** Each stack's event ids, newest first. */
async function stackEvents(test: TestCloud, stacks: string[]): Promise<Record<string, string[]>> {
  const events: Record<string, string[]> = {};
  for (const stack of stacks) events[stack] = ((await test.cfn.send(new DescribeStackEventsCommand({ StackName: stack }))).StackEvents ?? []).map(event => event.EventId!);
  return events;
}

compose('fw deploy in the compose folder redeploys only the service that changed; the others report no changes and their stacks see no operation', async context => {
  const stacks = ['compose-api-dev', 'compose-queue-dev', 'compose-topic-dev'];
  const before = await stackEvents(context.test, stacks);
  writeFileSync(join(context.app, 'topic', 'fw.yml'), TOPIC_SERVICE('alerts-renamed'));
  const { code, stdout, stderr } = await fw(['deploy', '--endpoint-url', context.test.cloud.url], context.app);
  assert.equal({ code, stderr }, { code: 0, stderr: '' });
  assert.equal(outcomes(stdout).sort(), ['api no changes', 'queue no changes', 'topic deployed']);
  assert.ok(stdout.includes('topic › Deploying compose-topic to stage dev in '), stdout);
  assert.ok(stdout.includes('api › No changes to deploy: the template and code are those of the last deployment'), stdout);
  const after = await stackEvents(context.test, stacks);
  assert.equal({ api: after['compose-api-dev'], queue: after['compose-queue-dev'] }, { api: before['compose-api-dev'], queue: before['compose-queue-dev'] });
  assert.ok(after['compose-topic-dev'].length > before['compose-topic-dev'].length, 'the changed service got a stack update');
});

compose('fw deploy --service deploys one service with the stored outputs of its dependencies', async context => {
  const { code, stdout, stderr } = await fw(['deploy', '--service', 'api', '--endpoint-url', context.test.cloud.url], context.app);
  assert.equal({ code, stderr, outcomes: outcomes(stdout) }, { code: 0, stderr: '', outcomes: ['api no changes'] });
});

compose('an output the dependency does not have fails that service with a line naming the param', async context => {
  writeFileSync(join(context.app, 'broken-compose.yml'), COMPOSE_FILE.replace('${queue.QueueUrl}', '${queue.QueueURL}'));
  const { code, stdout, stderr } = await fw(['deploy', '-c', 'broken-compose.yml', '--endpoint-url', context.test.cloud.url], context.app);
  assert.equal({ code, stderr }, { code: 1, stderr: 'Error: 1 of 3 services failed (api)\n' });
  assert.equal(outcomes(stdout).sort(), [
    `api failed: Invalid configuration in 'services.api.params.queueUrl': service queue has no output "QueueURL" (its outputs: QueueUrl, ServerlessDeploymentBucketName)`,
    'queue no changes',
    'topic no changes',
  ]);
});

compose('with local, one local cloud is started for the whole run and stopped after it', async context => {
  const dir = join(context.work, 'own-cloud');
  cpSync(join(__dirname, '..', '..', '..', 'examples', 'queue-and-api-compose'), dir, { recursive: true });
  const result = await runApplication('deploy', { file: join(dir, 'fw-compose.yml'), local: { port: 0, dataDir: join(context.work, 'own-cloud-data') } });
  assert.match(result.startedLocalCloud ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  const [queue, api] = result.runs.map(run => (run.result as { outputs: Record<string, string> }).outputs);
  assert.equal(
    { runs: result.runs.map(run => `${run.service}:${run.status}`), queueUrl: queue.QueueUrl.startsWith(`${result.startedLocalCloud}/`), apiUrl: api.HttpApiUrl.startsWith(`${result.startedLocalCloud}/`) },
    { runs: ['queue:deployed', 'api:deployed'], queueUrl: true, apiUrl: true },
  );
  assert.instance(await fetch(api.HttpApiUrl).catch(error => error), TypeError);
});

compose('examples/queue-and-api-compose deploys the queue, then the API that answers with its URL', async context => {
  const dir = join(context.work, 'queue-and-api-compose');
  cpSync(join(__dirname, '..', '..', '..', 'examples', 'queue-and-api-compose'), dir, { recursive: true });
  const result = await runApplication('deploy', { file: join(dir, 'fw-compose.yml'), endpoint: context.test.cloud.url });
  assert.equal(result.runs.map(run => `${run.service}:${run.status}`), ['queue:deployed', 'api:deployed']);
  const [queue, api] = result.runs.map(run => (run.result as { outputs: Record<string, string> }).outputs);
  const response = await fetch(`${api.HttpApiUrl}/queue`);
  assert.equal({ status: response.status, body: await response.json() }, { status: 200, body: { queueUrl: queue.QueueUrl } });
  const removed = await runApplication('remove', { file: join(dir, 'fw-compose.yml'), endpoint: context.test.cloud.url });
  assert.equal(removed.runs.map(run => `${run.service}:${run.status}`), ['api:removed', 'queue:removed']);
});

compose('without stored outputs (a fresh checkout), fw info and fw remove read them from the deployed stacks; remove goes in reverse order', async context => {
  rmSync(join(context.app, '.serverless', 'compose-outputs-dev.json'));
  const described = await fw(['info', '--endpoint-url', context.test.cloud.url], context.app);
  assert.equal({ code: described.code, outcomes: outcomes(described.stdout).sort() }, { code: 0, outcomes: ['api described', 'queue described', 'topic described'] });
  assert.ok(described.stdout.includes('\nservice: compose-api\nstage: dev\nregion: us-east-1\nstack: compose-api-dev (UPDATE_COMPLETE)\n'), described.stdout);

  const result = await runApplication('remove', { file: join(context.app, 'fw-compose.yml'), endpoint: context.test.cloud.url });
  assert.equal(result.runs.map(run => `${run.service}:${run.status}`).sort(), ['api:removed', 'queue:removed', 'topic:removed']);
  const queueStart = result.timeline.findIndex(entry => entry.service === 'queue' && entry.event === 'start');
  const apiEnd = result.timeline.findIndex(entry => entry.service === 'api' && entry.event === 'end');
  assert.ok(queueStart > apiEnd, JSON.stringify(result.timeline));
  assert.equal(await liveStacks(context.test), []);
  assert.equal(JSON.parse(readFileSync(join(context.app, '.serverless', 'compose-outputs-dev.json'), 'utf8')), {});
});

compose.run();

const errors = suite<{ dir: string }>('compose file mistakes');

errors.before.each(context => {
  context.dir = mkdtempSync(join(tmpdir(), 'fw-compose-errors-'));
  writeApplication(context.dir);
});

errors.after.each(context => rmSync(context.dir, { recursive: true, force: true }));

const fails = async (dir: string, compose: string, args = ['deploy']) => {
  writeFileSync(join(dir, 'fw-compose.yml'), compose);
  const { code, stdout, stderr } = await fw(args, dir);
  return { code, stdout, stderr };
};

errors('services that depend on each other are one line naming the cycle', async ({ dir }) => {
  const cycle = 'services:\n  a:\n    path: queue\n    dependsOn: b\n  b:\n    path: api\n    params:\n      queueUrl: ${a.QueueUrl}\n';
  assert.equal(await fails(dir, cycle), { code: 1, stdout: '', stderr: 'Error: services a → b → a depend on each other\n' });
});

errors('an unknown service in a param or in dependsOn names the path', async ({ dir }) => {
  assert.equal(await fails(dir, COMPOSE_FILE.replace('${queue.QueueUrl}', '${service:queues.QueueUrl}')), {
    code: 1, stdout: '', stderr: `Error: Invalid configuration in 'services.api.params.queueUrl': unknown service "queues" (services: queue, api, topic)\n`,
  });
  assert.equal(await fails(dir, `${COMPOSE_FILE}    dependsOn: [queue, web]\n`), {
    code: 1, stdout: '', stderr: `Error: Invalid configuration in 'services.topic.dependsOn[1]': unknown service "web" (services: queue, api, topic)\n`,
  });
});

errors('a wrong shape in the compose file names the path and the value', async ({ dir }) => {
  assert.equal(await fails(dir, 'services:\n  queue:\n    path: queue\n    dependson: api\n'), {
    code: 1, stdout: '', stderr: `Error: Invalid configuration in 'services.queue.dependson' of fw-compose.yml: unknown property (did you mean "dependsOn"?)\n`,
  });
  assert.equal(await fails(dir, 'services:\n  queue:\n    path: queues\n'), {
    code: 1, stdout: '', stderr: `Error: Invalid configuration in 'services.queue.path' of fw-compose.yml: folder "queues" does not exist\n`,
  });
});

errors('a command that works on one service says so', async ({ dir }) => {
  assert.equal(await fails(dir, COMPOSE_FILE, ['invoke', '-f', 'queue']), {
    code: 1, stdout: '', stderr: `Error: fw invoke runs on one service: run it in a service's folder (fw-compose.yml is a compose file)\n`,
  });
});

errors('a Serverless Compose file works unchanged: fw package packages each service in dependency order', async ({ dir }) => {
  rmSync(join(dir, 'fw-compose.yml'));
  for (const folder of ['queue', 'topic']) {
    writeFileSync(join(dir, folder, 'serverless.yml'), readFileSync(join(dir, folder, 'fw.yml')));
    rmSync(join(dir, folder, 'fw.yml'));
  }
  writeFileSync(join(dir, 'serverless-compose.yml'), 'services:\n  queue:\n    path: queue\n  topic:\n    path: topic\n    config: serverless.yml\n    dependsOn: queue\n');
  const { code, stdout, stderr } = await fw(['package', '--stage', 'prod', '--max-concurrency', '1'], dir);
  assert.equal({ code, stderr, outcomes: outcomes(stdout) }, { code: 0, stderr: '', outcomes: ['queue packaged', 'topic packaged'] });
  assert.equal(JSON.parse(readFileSync(join(dir, 'topic', '.serverless', 'cloudformation-template-update-stack.json'), 'utf8')).Resources.Alerts, {
    Type: 'AWS::SNS::Topic', Properties: { TopicName: 'alerts' },
  });
  const explicit = await fw(['package', '-c', 'serverless-compose.yml', '--service', 'queue'], dir);
  assert.equal({ code: explicit.code, outcomes: outcomes(explicit.stdout) }, { code: 0, outcomes: ['queue packaged'] });
});

errors('--service outside a compose folder is one line', async ({ dir }) => {
  const { code, stdout, stderr } = await fw(['package', '--service', 'api'], join(dir, 'api'));
  assert.equal({ code, stdout, stderr }, { code: 1, stdout: '', stderr: `Error: --service api needs a compose file (fw-compose.yml or serverless-compose.yml), and ${join(dir, 'api')} runs one service\n` });
});

errors('a service that fails skips the services that need it, and the command exits 1 naming both', async ({ dir }) => {
  const result = await fails(dir, `${COMPOSE_FILE}    dependsOn: api\n`, ['package']);
  assert.equal({ code: result.code, stderr: result.stderr, outcomes: outcomes(result.stdout) }, {
    code: 1,
    stderr: 'Error: 1 of 3 services failed (api); skipped: topic (needs api)\n',
    outcomes: [
      'queue packaged',
      'api failed: Service api needs the outputs of queue, which are not stored for stage dev (.serverless/compose-outputs-dev.json): deploy queue first',
      'topic skipped: it needs api',
    ],
  });
});

errors.run();
