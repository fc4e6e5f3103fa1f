import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';

// A custom runtime as AWS's tutorial writes one (there in bash with curl; here in Node.js, which every
// machine running fw has): it loops on the Runtime API, as Go's aws-lambda-go and Rust's lambda_runtime do.
const BOOTSTRAP = `#!/usr/bin/env node
const http = require('http');
const [host, port] = process.env.AWS_LAMBDA_RUNTIME_API.split(':');
const mode = process.env.MODE || 'ok';
const call = (method, path, body, headers = {}) => new Promise((resolve, reject) => {
  const request = http.request({ host, port, method, path, headers }, (response) => {
    let data = '';
    response.on('data', (chunk) => (data += chunk));
    response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: data }));
  });
  request.on('error', reject);
  request.end(body);
});
(async () => {
  if (mode === 'init') {
    await call('POST', '/2018-06-01/runtime/init/error', JSON.stringify({ errorMessage: 'missing configuration', errorType: 'Init.Config' }));
    return;
  }
  for (;;) {
    const next = await call('GET', '/2018-06-01/runtime/invocation/next');
    const id = next.headers['lambda-runtime-aws-request-id'];
    console.log('handling ' + id);
    if (mode === 'exit') process.exit(3);
    if (mode === 'error') {
      const posted = await call('POST', '/2018-06-01/runtime/invocation/' + id + '/error', JSON.stringify({ errorMessage: 'it broke', errorType: 'Custom.Broken', stackTrace: ['at main'] }));
      console.error('error posted: ' + posted.status);
      continue;
    }
    const wrong = await call('POST', '/2018-06-01/runtime/invocation/not-the-id/response', '{}');
    const event = JSON.parse(next.body);
    const seen = {
      path: event.rawPath,
      wrongId: wrong.status + ' ' + wrong.body,
      deadlineAhead: Number(next.headers['lambda-runtime-deadline-ms']) > Date.now(),
      arn: next.headers['lambda-runtime-invoked-function-arn'],
      trace: /^Root=1-[0-9a-f]{8}-[0-9a-f]{24};Parent=[0-9a-f]{16};Sampled=0$/.test(next.headers['lambda-runtime-trace-id']),
      handler: process.env._HANDLER,
      inTaskRoot: process.cwd() === process.env.LAMBDA_TASK_ROOT,
    };
    const posted = await call('POST', '/2018-06-01/runtime/invocation/' + id + '/response', JSON.stringify({ statusCode: 200, body: JSON.stringify(seen) }));
    console.log('response posted: ' + posted.status + ' ' + posted.body);
  }
})();
`;

const SERVICE = `service: custom
provider:
  name: aws
  runtime: provided.al2
functions:
  echo:
    handler: bootstrap
    events:
      - httpApi: GET /echo
  broken:
    handler: bootstrap
    environment:
      MODE: error
  unconfigured:
    handler: bootstrap
    environment:
      MODE: init
  crashing:
    handler: bootstrap
    environment:
      MODE: exit
  legacyGo:
    runtime: go1.x
    handler: main
`;

type Context = TestService & { lambda: LambdaClient };
const runtimeApi = suite<Context>('provided and go1.x functions run in the local cloud through the Lambda Runtime API');

runtimeApi.before(async (context) => {
  Object.assign(context, await startTestService({ 'fw.yml': SERVICE, bootstrap: BOOTSTRAP, main: BOOTSTRAP }));
  for (const file of ['bootstrap', 'main']) chmodSync(join(context.service, file), 0o755);
  writeFileSync(join(context.service, 'package.json'), '{}');
  const deployed = await context.fw('deploy', '--stage', 'dev');
  assert.is(deployed.code, 0, deployed.stderr + deployed.stdout);
  assert.match(deployed.stdout + deployed.stderr, `EchoLambdaFunction: runtime provided.al2: its executable runs on this machine (${process.platform}/${process.arch}), not on Amazon Linux; a binary built for another system fails`);
  context.lambda = new LambdaClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
});
runtimeApi.after(async (context) => {
  context.lambda.destroy();
  await context.stop();
});

const invoke = async (lambda: LambdaClient, FunctionName: string, event: unknown = {}) => {
  const output = await lambda.send(new InvokeCommand({ FunctionName, Payload: Buffer.from(JSON.stringify(event)), LogType: 'Tail' }));
  return { functionError: output.FunctionError, payload: JSON.parse(Buffer.from(output.Payload!).toString('utf8')) as Record<string, unknown>, log: Buffer.from(output.LogResult ?? '', 'base64').toString('utf8'), requestId: output.$metadata.requestId };
};

runtimeApi('an HTTP API request reaches the bootstrap through the Runtime API, with Lambda\'s headers, and its posted response is the answer', async ({ fw }) => {
  const info = await fw('info', '--stage', 'dev');
  const endpoint = /(http:\/\/\S+\/echo)/.exec(info.stdout)?.[1];
  assert.ok(endpoint, info.stdout);
  const response = await fetch(endpoint!);
  assert.is(response.status, 200);
  assert.equal(await response.json(), {
    path: '/echo',
    wrongId: '400 {"errorMessage":"Invalid request ID","errorType":"InvalidRequestID"}',
    deadlineAhead: true,
    arn: 'arn:aws:lambda:us-east-1:000000000000:function:custom-dev-echo',
    trace: true,
    handler: 'bootstrap',
    inTaskRoot: true,
  });
});

runtimeApi('what the executable prints while it handles an invocation is that invocation\'s log, between START and REPORT', async ({ lambda }) => {
  const { log, requestId } = await invoke(lambda, 'custom-dev-echo');
  const lines = log.trim().split('\n');
  assert.match(lines[0], `START RequestId: ${requestId}`);
  assert.ok(lines.some((line) => line.includes(`handling ${requestId}`)), log);
  assert.match(lines.at(-1)!, `REPORT RequestId: ${requestId}`);
});

runtimeApi('an error posted to …/error is the function error, as posted', async ({ lambda }) => {
  const { functionError, payload } = await invoke(lambda, 'custom-dev-broken');
  assert.equal([functionError, payload], ['Unhandled', { errorType: 'Custom.Broken', errorMessage: 'it broke', stackTrace: ['at main'] }]);
});

runtimeApi('an init error fails the invocation with the posted error; an executable that exits fails it with Runtime.ExitError', async ({ lambda }) => {
  assert.equal(await invoke(lambda, 'custom-dev-unconfigured').then(({ functionError, payload }) => [functionError, payload]), ['Unhandled', { errorType: 'Init.Config', errorMessage: 'missing configuration' }]);
  const crashed = await invoke(lambda, 'custom-dev-crashing');
  assert.equal([crashed.functionError, crashed.payload], ['Unhandled', { errorType: 'Runtime.ExitError', errorMessage: `RequestId: ${crashed.requestId} Error: Runtime exited with error: exit status 3` }]);
  // The next invocation starts a new environment, which fails the same way.
  const again = await invoke(lambda, 'custom-dev-crashing');
  assert.equal(again.payload.errorType, 'Runtime.ExitError');
});

runtimeApi('a go1.x function runs its handler file, which speaks the Runtime API as aws-lambda-go does when AWS_LAMBDA_RUNTIME_API is set', async ({ lambda }) => {
  const { functionError, payload } = await invoke(lambda, 'custom-dev-legacyGo', { rawPath: '/go' });
  assert.is(functionError, undefined);
  assert.equal(JSON.parse(String(payload.body)).handler, 'main');
});

runtimeApi.run();
