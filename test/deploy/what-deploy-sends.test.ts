import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runFw } from '../helpers/cli';
import { startTestService, TEST_ENV, type TestService } from '../helpers/local-cloud';

/** A CloudFormation call as the endpoint received it (query protocol: form parameters). */
type Call = Record<string, string>;

/**
 * An endpoint in front of the local cloud that records every CloudFormation call fw sends and
 * passes everything on, except the action `failing` names, which it answers with an error.
 */
interface RecordingEndpoint {
  url: string;
  calls: Call[];
  failing?: string;
  close(): Promise<void>;
}

async function recordingEndpoint(target: string): Promise<RecordingEndpoint> {
  const endpoint: Partial<RecordingEndpoint> & { calls: Call[] } = { calls: [] };
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', chunk => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const form = String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(body.toString())) : undefined;
      if (form?.Action) endpoint.calls.push(form);
      if (form?.Action && form.Action === endpoint.failing) {
        res.writeHead(400, { 'content-type': 'text/xml' });
        res.end('<ErrorResponse><Error><Type>Sender</Type><Code>ValidationError</Code><Message>Refused by the test endpoint</Message></Error><RequestId>1</RequestId></ErrorResponse>');
        return;
      }
      const forwarded = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, response => {
        res.writeHead(response.statusCode ?? 500, response.headers);
        response.pipe(res);
      });
      forwarded.on('error', error => res.destroy(error));
      forwarded.end(body);
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint.close = () => new Promise(resolve => (server.closeAllConnections(), server.close(() => resolve())));
  return endpoint as RecordingEndpoint;
}

/** `queues` SQS queues with 50 tags of 250 characters each: a template past the 51,200 bytes CloudFormation takes inline. */
function serviceFile(name: string, queues = 0): string {
  const lines = [`service: ${name}`, 'provider:', '  name: aws', '  runtime: nodejs20.x', 'functions:', '  hello:', '    handler: handler.main'];
  if (queues > 0) lines.push('resources:', '  Resources:');
  for (let q = 0; q < queues; q++) {
    lines.push(`    Queue${q}:`, '      Type: AWS::SQS::Queue', '      Properties:', '        Tags:');
    for (let t = 0; t < 50; t++) lines.push(`          - Key: tag${t}`, `            Value: ${'v'.repeat(250)}`);
  }
  return `${lines.join('\n')}\n`;
}

const HANDLER = 'exports.main = async () => ({ statusCode: 200, body: "ok" });\n';
const stackCalls = (calls: Call[]) => calls.filter(call => /^(CreateStack|UpdateStack|CreateChangeSet)$/.test(call.Action));
/** What a stack call says about its template: inline (with its size) or the URL. */
const templateOf = (call: Call) => (call.TemplateBody !== undefined ? `${call.Action} TemplateBody` : `${call.Action} TemplateURL ${call.TemplateURL}`);

const sends = suite<{ service?: TestService; endpoint?: RecordingEndpoint }>('what fw deploy sends to an endpoint');

sends.after.each(async context => {
  await context.endpoint?.close();
  await context.service?.stop();
});

sends('a template CloudFormation takes inline is sent as TemplateBody, so no emulator has to resolve a URL', async context => {
  const service = (context.service = await startTestService({ 'fw.yml': serviceFile('inline'), 'handler.js': HANDLER }));
  const endpoint = (context.endpoint = await recordingEndpoint(service.cloud.url));
  const { code, stderr } = await runFw(['deploy', '--endpoint-url', endpoint.url], service.service, TEST_ENV);
  assert.equal({ code, stderr }, { code: 0, stderr: '' });
  assert.equal(stackCalls(endpoint.calls).map(templateOf), ['CreateStack TemplateBody', 'CreateChangeSet TemplateBody']);
});

sends('a larger template goes by URL, a loopback endpoint named localhost (what moto resolves to its own S3)', async context => {
  const service = (context.service = await startTestService({ 'fw.yml': serviceFile('by-url', 5), 'handler.js': HANDLER }));
  const endpoint = (context.endpoint = await recordingEndpoint(service.cloud.url));
  const { code, stderr } = await runFw(['deploy', '--endpoint-url', endpoint.url], service.service, TEST_ENV);
  assert.equal({ code, stderr }, { code: 0, stderr: '' });
  const [create, changeSet] = stackCalls(endpoint.calls).map(templateOf);
  assert.is(create, 'CreateStack TemplateBody');
  const port = new URL(endpoint.url).port;
  assert.match(changeSet, new RegExp(`^CreateChangeSet TemplateURL http://localhost:${port}/by-url-dev-serverlessdeploymentbucket-[a-z0-9]+/serverless/by-url/dev/\\d+-[^/]+/compiled-cloudformation-template\\.json$`));
});

sends('a deploy call the endpoint refuses is one line naming the step', async context => {
  const service = (context.service = await startTestService({ 'fw.yml': serviceFile('refused'), 'handler.js': HANDLER }));
  const endpoint = (context.endpoint = await recordingEndpoint(service.cloud.url));
  endpoint.failing = 'CreateChangeSet';
  const created = await runFw(['deploy', '--endpoint-url', endpoint.url], service.service, TEST_ENV);
  assert.equal({ code: created.code, stderr: created.stderr }, { code: 1, stderr: 'Error: deploying refused-dev failed (create change set): ValidationError: Refused by the test endpoint\n' });
  endpoint.failing = 'ExecuteChangeSet';
  const executed = await runFw(['deploy', '--endpoint-url', endpoint.url], service.service, TEST_ENV);
  assert.equal({ code: executed.code, stderr: executed.stderr }, { code: 1, stderr: 'Error: deploying refused-dev failed (execute change set): ValidationError: Refused by the test endpoint\n' });
});

sends.run();
