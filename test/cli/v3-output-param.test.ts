import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runFw } from '../plugins/helpers';
import { startTestService, TEST_ENV, type TestService } from '../helpers/local-cloud';

/** v3's `output get/list` and `param get/list`, without a dashboard: the stack's outputs, the service file's params. */
const SERVICE = `service: shelf
provider:
  name: aws
  runtime: nodejs20.x
params:
  default:
    domain: example.com
    tier: free
  prod:
    tier: paid
functions:
  hello:
    handler: handler.main
resources:
  Outputs:
    Greeting:
      Value: hello-\${param:tier}
`;

const commands = suite<TestService>('Serverless v3 output and param commands');

commands.before(async (context) => {
  Object.assign(context, await startTestService({ 'serverless.yml': SERVICE, 'handler.js': 'exports.main = async () => 1;\n' }));
  const deployed = await context.fw('deploy');
  assert.is(deployed.code, 0, deployed.stderr);
});

commands.after(async (context) => {
  await context.stop();
});

const fwHere = (context: TestService, ...args: string[]) => runFw(args, context.service, TEST_ENV);

commands('param list prints the stage\'s parameters: params.<stage> over params.default, --param over both', async (context) => {
  assert.equal(await fwHere(context, 'param', 'list'), { code: 0, stdout: 'param   value\ndomain  example.com\ntier    free\n', stderr: '' });
  assert.equal(await fwHere(context, 'param', 'list', '--stage', 'prod', '--param', 'domain=shop.example.com'), {
    code: 0,
    stdout: 'param   value\ndomain  shop.example.com\ntier    paid\n',
    stderr: '',
  });
});

commands('param get prints one value, and names where it looked for a missing one', async (context) => {
  assert.equal(await fwHere(context, 'param', 'get', '--name', 'tier', '--stage', 'prod'), { code: 0, stdout: 'paid\n', stderr: '' });
  assert.equal(await fwHere(context, 'param', 'get', '--name', 'region'), {
    code: 1,
    stdout: '',
    stderr: 'Error: Parameter "region" is not defined for stage dev (no --param "region=…", params.dev.region or params.default.region)\n',
  });
});

commands('output list and output get read the deployed stack\'s outputs', async (context) => {
  const listed = await context.fw('output', 'list');
  assert.is(listed.code, 0, listed.stderr);
  const rows = listed.stdout.trim().split('\n').map((line) => line.split(/\s+/)[0]);
  // In the stack's order.
  assert.equal(rows, ['output', 'ServerlessDeploymentBucketName', 'HelloLambdaFunctionQualifiedArn', 'Greeting']);
  assert.equal(await context.fw('output', 'get', '--name', 'Greeting'), { code: 0, stdout: 'hello-free\n', stderr: '' });
  assert.equal(await context.fw('output', 'get', '--name', 'Missing'), {
    code: 1,
    stdout: '',
    stderr: 'Error: Stack shelf-dev has no output "Missing" (it has: ServerlessDeploymentBucketName, HelloLambdaFunctionQualifiedArn, Greeting)\n',
  });
});

commands.run();
