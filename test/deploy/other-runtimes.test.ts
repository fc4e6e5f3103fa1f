import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GetFunctionConfigurationCommand, InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { FIXTURES } from '../helpers/golden';
import { runFw } from '../helpers/cli';
import { LOCAL_CREDENTIALS, TEST_ENV, startTestService, type TestService } from '../helpers/local-cloud';

const SERVICE = `service: jvm
provider:
  name: aws
  runtime: java17
package:
  artifact: target/hello-dev.jar
functions:
  hello:
    handler: com.example.Handler::handleRequest
  clojure:
    handler: hello::handler
    runtime: java11
`;

const runtimes = suite<TestService>('a Java service shipped as a jar deploys to the local cloud, which says it does not run it');

runtimes.before(async context => {
  Object.assign(context, await startTestService({ 'fw.yml': SERVICE }));
  mkdirSync(join(context.service, 'target'));
  copyFileSync(join(FIXTURES, 'golden', 'runtime-java-artifact', 'target', 'hello-dev.jar'), join(context.service, 'target', 'hello-dev.jar'));
});
runtimes.after(async context => context.stop());

runtimes('fw deploy uploads the jar as the code of both functions and lists them as not run locally', async context => {
  const result = await context.fw('deploy');
  assert.is(result.code, 0, result.stderr);
  const warning = result.stdout.slice(result.stdout.indexOf('Warning: the local cloud does not enforce or emulate'));
  assert.match(warning, '  - ClojureLambdaFunction: runtime java11 not run by the local cloud (it runs Node.js, Python and Runtime API functions: provided, go1.x); invoking it fails\n');
  assert.match(warning, '  - HelloLambdaFunction: runtime java17 not run by the local cloud (it runs Node.js, Python and Runtime API functions: provided, go1.x); invoking it fails\n');
  const lambda = new LambdaClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const config = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'jvm-dev-hello' }));
  assert.equal([config.Runtime, config.Handler], ['java17', 'com.example.Handler::handleRequest']);
  try {
    await lambda.send(new InvokeCommand({ FunctionName: 'jvm-dev-hello' }));
    assert.unreachable('the local cloud ran a Java function');
  } catch (error) {
    assert.is((error as Error).message, 'The local cloud runs Node.js, Python and Runtime API (provided, go1.x) functions; java17 is not supported');
  }
});

runtimes('fw package leaves the jar where it is, and fw deploy --package uploads it from there', async context => {
  // A new stage: a new stack and bucket, so the jar (and the template: 2 files) is uploaded rather than kept from an earlier deployment.
  const packaged = await runFw(['package', '--stage', 'qa'], context.service, TEST_ENV);
  assert.is(packaged.code, 0, packaged.stderr);
  assert.not.ok(existsSync(join(context.service, '.serverless', 'hello-dev.jar')));
  const result = await context.fw('deploy', '--package', '.serverless', '--stage', 'qa');
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, /Uploaded 2 files to s3:\/\/[^/]+\/serverless\/jvm\/qa\//, result.stdout);
  assert.match(result.stdout, 'stack: jvm-qa (UPDATE_COMPLETE)', result.stdout);
});

runtimes.run();

const IMAGE = '000000000000.dkr.ecr.us-east-1.amazonaws.com/app@sha256:6bb600b4d6e1d7cf521097177dd0c4e9ea373edb91984a505333be8ac9455d38';
const images = suite<TestService>('a service of container images deploys to the local cloud, which says it does not run them');

images.before(async context => {
  Object.assign(context, await startTestService({ 'fw.yml': `service: images\nprovider:\n  name: aws\nfunctions:\n  hello:\n    image:\n      uri: ${IMAGE}\n      command:\n        - handler.hello\n` }));
});
images.after(async context => context.stop());

images('fw deploy creates the image function and lists it as not run locally', async context => {
  const result = await context.fw('deploy');
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, '  - HelloLambdaFunction: container image not run by the local cloud (it runs Node.js, Python and Runtime API functions: provided, go1.x); invoking it fails\n');
  const lambda = new LambdaClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const config = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'images-dev-hello' }));
  assert.equal([config.PackageType, config.Runtime, config.Handler, config.ImageConfigResponse?.ImageConfig], ['Image', undefined, undefined, { Command: ['handler.hello'] }]);
  try {
    await lambda.send(new InvokeCommand({ FunctionName: 'images-dev-hello' }));
    assert.unreachable('the local cloud ran a container image');
  } catch (error) {
    assert.is((error as Error).message, `The local cloud does not run container image functions; images-dev-hello runs ${IMAGE}`);
  }
});

images.run();

const CURRENT_NODE = `nodejs${process.versions.node.split('.')[0]}.x`;
const versions = suite<TestService>('functions whose runtime version the local cloud runs on another version are named at deploy');

versions.before(async context => {
  const service = `service: versions\nprovider:\n  name: aws\n  runtime: ${CURRENT_NODE}\nfunctions:\n  current:\n    handler: handler.hello\n  old:\n    handler: handler.hello\n    runtime: nodejs16.x\n  legacy:\n    handler: handler.hello\n    runtime: python2.7\n`;
  Object.assign(context, await startTestService({ 'fw.yml': service, 'handler.js': 'exports.hello = async () => "hi";\n', 'handler.py': 'def hello(event, context):\n    return "hi"\n' }));
});
versions.after(async context => context.stop());

versions('a nodejs16.x function runs on the local cloud’s Node.js, a python2.7 one on python3: both said once, the current runtime not', async context => {
  const result = await context.fw('deploy');
  assert.is(result.code, 0, result.stderr);
  const python3 = spawnSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
  const legacy = python3.status === 0 ? `runtime python2.7 runs on Python ${python3.stdout.trim()} here (no python2.7 on the PATH)` : 'runtime python2.7 not run: no python3 on the PATH; invoking it fails';
  const lines = result.stdout.split('\n').filter(line => /^ {2}- \w+LambdaFunction: /.test(line));
  assert.equal(lines, [`  - LegacyLambdaFunction: ${legacy}`, `  - OldLambdaFunction: runtime nodejs16.x runs on Node.js ${process.versions.node} here (the local cloud's own)`]);
  const lambda = new LambdaClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const answer = await lambda.send(new InvokeCommand({ FunctionName: 'versions-dev-old' }));
  assert.is(Buffer.from(answer.Payload!).toString(), '"hi"');
});

versions.run();
