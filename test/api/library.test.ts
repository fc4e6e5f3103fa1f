import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CloudError, ConfigError, deploy, info, packageService, remove, StackError } from '../../src/index';
import { startTestCloud, type TestCloud } from '../local/helpers';

const EXAMPLE = join(__dirname, '..', '..', '..', 'examples', 'node-http-api');
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };

interface Context {
  test: TestCloud;
  work: string;
  env: Record<string, string | undefined>;
}

const api = suite<Context>('library API');

api.before(async context => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-api-'));
  context.test = await startTestCloud(join(context.work, 'cloud'));
  // The SDK reads credentials from the environment; the local cloud takes any.
  context.env = Object.fromEntries(Object.keys(CREDENTIALS).map(key => [key, process.env[key]]));
  Object.assign(process.env, CREDENTIALS);
});

api.after(async context => {
  for (const [key, value] of Object.entries(context.env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await context.test.stop();
  rmSync(context.work, { recursive: true, force: true });
});

const copyExample = (context: Context, name: string) => {
  const dir = join(context.work, name);
  cpSync(EXAMPLE, dir, { recursive: true });
  return dir;
};

api('packageService writes .serverless and returns the template and the artifacts', async context => {
  const cwd = copyExample(context, 'package');
  const result = await packageService({ cwd, stage: 'test' });
  assert.equal(
    { service: result.service, stage: result.stage, region: result.region, stackName: result.stackName, outDir: result.outDir, files: result.files },
    {
      service: 'node-http-api', stage: 'test', region: 'us-east-1', stackName: 'node-http-api-test', outDir: join(cwd, '.serverless'),
      files: ['cloudformation-template-update-stack.json', 'cloudformation-template-create-stack.json', 'serverless-state.json', 'node-http-api.zip'],
    },
  );
  assert.equal(result.artifacts.map(artifact => ({ name: artifact.name, path: artifact.path, exists: existsSync(artifact.path) })), [
    { name: 'node-http-api.zip', path: join(cwd, '.serverless', 'node-http-api.zip'), exists: true },
  ]);
  assert.equal((result.template.Resources.ListItemsLambdaFunction.Properties as { FunctionName: string }).FunctionName, 'node-http-api-test-listItems');
  assert.equal(Object.keys(result.template.Outputs ?? {}).sort(), ['GetItemLambdaFunctionQualifiedArn', 'HttpApiId', 'HttpApiUrl', 'ListItemsLambdaFunctionQualifiedArn', 'ServerlessDeploymentBucketName']);
});

api('deploy returns the outputs, endpoints and function names, and the endpoint answers', async context => {
  const cwd = copyExample(context, 'deploy');
  const lines: string[] = [];
  const deployed = await deploy({ cwd, endpoint: context.test.cloud.url, reporter: { info: line => lines.push(line) } });
  const apiUrl = deployed.outputs.HttpApiUrl;
  assert.match(apiUrl, new RegExp(`^${context.test.cloud.url}/_fw/execute-api/[a-z0-9]{10}$`));
  assert.equal(
    { outcome: deployed.outcome, stackName: deployed.stackName, status: deployed.status, endpoints: deployed.endpoints, functions: deployed.functions },
    {
      outcome: 'deployed',
      stackName: 'node-http-api-dev',
      status: 'UPDATE_COMPLETE',
      endpoints: [
        { method: 'GET', url: `${apiUrl}/items` },
        { method: 'GET', url: `${apiUrl}/items/{id}` },
      ],
      functions: [
        { key: 'listItems', name: 'node-http-api-dev-listItems' },
        { key: 'getItem', name: 'node-http-api-dev-getItem' },
      ],
    },
  );
  assert.equal(Object.keys(deployed.outputs).sort(), ['GetItemLambdaFunctionQualifiedArn', 'HttpApiId', 'HttpApiUrl', 'ListItemsLambdaFunctionQualifiedArn', 'ServerlessDeploymentBucketName']);
  assert.is(lines[0], `Deploying node-http-api to stage dev in ${context.test.cloud.url}`);
  assert.is(deployed.package.template.Resources.GetItemLambdaFunction.Type, 'AWS::Lambda::Function');

  const response = await fetch(`${apiUrl}/items/2`);
  assert.is(response.status, 200);
  assert.equal(await response.json(), { id: '2', name: 'Pencil', price: 1.2 });

  const again = await deploy({ cwd, endpoint: context.test.cloud.url });
  assert.is(again.outcome, 'unchanged');
  const described = await info({ cwd, endpoint: context.test.cloud.url });
  const { outcome, package: packaged, startedLocalCloud, ...deployedInfo } = deployed;
  assert.equal(described, deployedInfo);

  assert.equal(await remove({ cwd, endpoint: context.test.cloud.url }), { service: 'node-http-api', stage: 'dev', region: 'us-east-1', stackName: 'node-http-api-dev' });
  const gone = await info({ cwd, endpoint: context.test.cloud.url }).catch(error => error);
  assert.instance(gone, CloudError);
  assert.is(gone.message, 'Stack node-http-api-dev does not exist in us-east-1: the service is not deployed for stage dev');
});

api('deploy with local starts a local cloud for the call, on a free port with the given data folder, and stops it', async context => {
  const cwd = copyExample(context, 'own-cloud');
  const dataDir = join(context.work, 'own-cloud-data');
  const deployed = await deploy({ cwd, local: { port: 0, dataDir } });
  assert.match(deployed.startedLocalCloud ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal({ outcome: deployed.outcome, status: deployed.status, functions: deployed.functions.map(fn => fn.name) }, {
    outcome: 'deployed', status: 'UPDATE_COMPLETE', functions: ['node-http-api-dev-listItems', 'node-http-api-dev-getItem'],
  });
  assert.ok(existsSync(dataDir));
  const stopped = await fetch(deployed.outputs.HttpApiUrl).catch(error => error);
  assert.instance(stopped, TypeError);
});

api('a mistake in the service file throws a ConfigError naming its path', async context => {
  const cwd = copyExample(context, 'config-error');
  writeFileSync(join(cwd, 'fw.yml'), 'service: broken\nprovider:\n  name: aws\nfunctions:\n  hello:\n    handler: handler.listItems\n    events:\n      - sqs: { arn: "arn:aws:sqs:us-east-1:1:q", batchsize: 5 }\n');
  const error = await packageService({ cwd }).catch(caught => caught);
  assert.instance(error, ConfigError);
  assert.is(error.path, 'functions.hello.events[0].sqs.batchsize');
  assert.is(error.message, `Invalid configuration in 'functions.hello.events[0].sqs.batchsize': unknown property; did you mean "batchSize"?`);

  writeFileSync(join(cwd, 'fw.yml'), 'service: broken\nconfigValidationMode: error\nprovider:\n  name: aws\n  timeout: long\n');
  const invalid = await packageService({ cwd }).catch(caught => caught);
  assert.instance(invalid, ConfigError);
  assert.is(invalid.path, 'provider.timeout');
  assert.is(invalid.message, 'Invalid configuration (configValidationMode: error):\n  - at "provider.timeout": expected a number, got "long"');
});

api('a failed stack update throws a StackError naming the stack, the resource and the reason', async context => {
  const cwd = copyExample(context, 'stack-error');
  writeFileSync(
    join(cwd, 'fw.yml'),
    'service: failing\nprovider:\n  name: aws\n  runtime: nodejs20.x\nresources:\n  Resources:\n    Broken:\n      Type: AWS::S3::Bucket\n      Properties:\n        BucketName: Not_A_Valid_Bucket_Name\n',
  );
  const error = await deploy({ cwd, endpoint: context.test.cloud.url }).catch(caught => caught);
  assert.instance(error, StackError, String(error?.stack ?? error));
  assert.equal({ stackName: error.stackName, status: error.status, resource: error.resource?.logicalId, type: error.resource?.type }, {
    stackName: 'failing-dev', status: 'UPDATE_ROLLBACK_COMPLETE', resource: 'Broken', type: 'AWS::S3::Bucket',
  });
  assert.ok(error.message.startsWith('Deploying stack failing-dev failed (update): Broken (AWS::S3::Bucket) failed: '), error.message);
  assert.ok(error.message.includes(error.resource!.reason.replace(/\.$/, '')), error.message);
});

api.run();
