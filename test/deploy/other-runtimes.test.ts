import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { GetFunctionConfigurationCommand, InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { FIXTURES } from '../helpers/golden';
import { LOCAL_CREDENTIALS, startTestService, type TestService } from '../helpers/local-cloud';

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
  assert.match(warning, '  - ClojureLambdaFunction: runtime java11 not run by the local cloud (it runs Node.js and Python functions); invoking it fails\n');
  assert.match(warning, '  - HelloLambdaFunction: runtime java17 not run by the local cloud (it runs Node.js and Python functions); invoking it fails\n');
  const lambda = new LambdaClient({ endpoint: context.cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const config = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'jvm-dev-hello' }));
  assert.equal([config.Runtime, config.Handler], ['java17', 'com.example.Handler::handleRequest']);
  try {
    await lambda.send(new InvokeCommand({ FunctionName: 'jvm-dev-hello' }));
    assert.unreachable('the local cloud ran a Java function');
  } catch (error) {
    assert.is((error as Error).message, 'The local cloud runs Node.js and Python functions; java17 is not supported');
  }
});

runtimes.run();
