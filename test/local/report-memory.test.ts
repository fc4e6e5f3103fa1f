import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateFunctionCommand, InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { startTestCloud, zip, type TestCloud } from './helpers';

const ROLE = 'arn:aws:iam::000000000000:role/lambda';
/** Holds `megabytes` of touched memory while it runs (`?mb=N`), so the environment's resident set grows by as much. */
const HANDLER = `const held = [];
exports.handler = async (event) => {
  if (event.mb) held.push(Buffer.alloc(event.mb * 1024 * 1024, 1));
  return 'ok';
};
`;

interface Context extends TestCloud {
  lambda: LambdaClient;
}

const report = suite<Context>("The local Lambda's REPORT line");

report.before(async (context) => {
  Object.assign(context, await startTestCloud());
  context.lambda = new LambdaClient(context.config);
  await context.lambda.send(new CreateFunctionCommand({ FunctionName: 'memory', Runtime: 'nodejs20.x', Role: ROLE, Handler: 'index.handler', MemorySize: 1024, Code: { ZipFile: await zip({ 'index.js': HANDLER }) } }));
});

report.after(async (context) => {
  context.lambda.destroy();
  await context.stop();
});

async function maxMemoryUsed(lambda: LambdaClient, mb: number): Promise<number> {
  const result = await lambda.send(new InvokeCommand({ FunctionName: 'memory', Payload: Buffer.from(JSON.stringify({ mb })), LogType: 'Tail' }));
  const tail = Buffer.from(result.LogResult ?? '', 'base64').toString('utf8');
  const used = /\tMemory Size: 1024 MB\tMax Memory Used: (\d+) MB/.exec(tail)?.[1];
  assert.ok(used, tail);
  return Number(used);
}

report('Max Memory Used is the peak resident memory of the function environment, not its memory size', async ({ lambda }) => {
  const idle = await maxMemoryUsed(lambda, 0);
  // A Node.js runtime that did nothing: tens of MB, as Lambda reports for a hello world.
  assert.ok(idle > 10 && idle < 300, `idle: ${idle} MB`);
  const grown = await maxMemoryUsed(lambda, 300);
  assert.ok(grown >= idle + 280 && grown < 1024, `idle ${idle} MB, after holding 300 MB: ${grown} MB`);
  // The peak of the environment's life: a later small invocation reports it still.
  assert.ok((await maxMemoryUsed(lambda, 0)) >= grown, 'the peak stays');
});

report.run();
