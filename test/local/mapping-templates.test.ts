import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startTestService, type TestService } from '../helpers/local-cloud';
import { outputsOf } from './helpers';

const REQUEST_TEMPLATE = `#set($body = $input.path('$'))
{
  "id": "$input.params('id')",
  "q": "$input.params('q')",
  "agent": "$input.params('x-agent')",
  "names": [#foreach($item in $body.items)"$util.escapeJavaScript($item.name)"#if($foreach.hasNext),#end#end],
  "count": $body.items.size(),
  "first": $input.json('$.items[0]'),
  "allNames": $input.json('$.items[*].name'),
  "raw": "$util.base64Encode($input.body)",
  "encoded": "$util.urlEncode('a b&c*~')",
  "parsed": $util.parseJson('{"n":1}').n,
  "stage": "$context.stage",
  "method": "$context.httpMethod",
  "resourcePath": "$context.resourcePath",
  "sourceIp": "$context.identity.sourceIp",
  "principal": "$context.authorizer.principalId",
  #if($body.items.size() > 1)"many": true,#end
  "stageVars": "$stageVariables.color"
}`;

// fw does not write `http.request.template` / `http.response.template` into the template yet (v3
// does), so the methods get whole integrations with them as `resources.extensions`.
const INTEGRATION = {
  Type: 'AWS',
  IntegrationHttpMethod: 'POST',
  Uri: { 'Fn::Join': ['', ['arn:aws:apigateway:', { Ref: 'AWS::Region' }, ':lambda:path/2015-03-31/functions/', { 'Fn::GetAtt': ['MappedLambdaFunction', 'Arn'] }, '/invocations']] },
};
const EXTENSIONS = {
  ApiGatewayMethodItemsIdVarPost: {
    Properties: {
      Integration: {
        ...INTEGRATION,
        RequestTemplates: { 'application/json': REQUEST_TEMPLATE },
        IntegrationResponses: [
          { StatusCode: '201', SelectionPattern: '', ResponseTemplates: { 'application/json': `{"got": $input.json('$.event'), "note": "$util.escapeJavaScript($input.path('$.note'))"}` } },
          {
            StatusCode: '409',
            SelectionPattern: '.*conflict.*',
            ResponseTemplates: { 'application/json': `#set($context.responseOverride.header.X-Why = "conflict"){"error": "$util.escapeJavaScript($input.path('$.errorMessage'))"}` },
          },
        ],
      },
    },
  },
  ApiGatewayMethodBrokenPost: { Properties: { Integration: { ...INTEGRATION, RequestTemplates: { 'application/json': 'not json $input.body' } } } },
};

const SERVICE = `service: vtl
frameworkVersion: '3'
provider:
  name: aws
  runtime: nodejs20.x
functions:
  mapped:
    handler: handler.mapped
    events:
      - http:
          method: post
          path: items/{id}
          integration: lambda
      - http:
          method: post
          path: broken
          integration: lambda
resources:
  extensions: ${JSON.stringify(EXTENSIONS)}
`;

const HANDLER = `
exports.mapped = async (event) => {
  if (event.id === 'taken') throw new Error('conflict: "taken" exists');
  return { event, note: 'a "quoted" note' };
};
`;

interface Context {
  t: TestService;
  rest: string;
}

const templates = suite<Context>('REST integration: lambda: custom request and response mapping templates, rendered as API Gateway renders VTL');

templates.before(async (context) => {
  context.t = await startTestService({ 'serverless.yml': SERVICE, 'handler.js': HANDLER });
  const deployed = await context.t.fw('deploy');
  assert.is(deployed.code, 0, deployed.stderr);
  context.rest = outputsOf((await context.t.cfn.send(new DescribeStacksCommand({ StackName: 'vtl-dev' }))).Stacks![0]).ServiceEndpoint;
});

templates.after(async ({ t }) => {
  await t.stop();
});

templates('the request template makes the event ($input, $util, $context, #set/#if/#foreach); the response template the body', async ({ rest }) => {
  const body = JSON.stringify({ items: [{ name: 'a"b' }, { name: 'c' }] });
  const response = await fetch(`${rest}/items/42?q=x%20y`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-agent': 'tester' }, body });
  assert.is(response.status, 201);
  assert.is(response.headers.get('content-type'), 'application/json');
  assert.equal(JSON.parse(await response.text()), {
    got: {
      id: '42',
      q: 'x y',
      agent: 'tester',
      names: ['a"b', 'c'],
      count: 2,
      first: { name: 'a"b' },
      allNames: ['a"b', 'c'],
      raw: Buffer.from(body).toString('base64'),
      encoded: 'a+b%26c*%7E',
      parsed: 1,
      stage: 'dev',
      method: 'POST',
      resourcePath: '/items/{id}',
      sourceIp: '127.0.0.1',
      principal: '',
      many: true,
      stageVars: '',
    },
    note: 'a "quoted" note',
  });
});

templates('an error matched by a selection pattern takes that response\'s template and its responseOverride header', async ({ rest }) => {
  const response = await fetch(`${rest}/items/taken`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [] }) });
  assert.equal([response.status, response.headers.get('x-why'), JSON.parse(await response.text())], [409, 'conflict', { error: 'conflict: "taken" exists' }]);
});

templates('a request template whose output is not JSON: 500, as Lambda refuses the payload', async ({ rest }) => {
  const response = await fetch(`${rest}/broken`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal([response.status, await response.json()], [500, { message: 'Internal server error' }]);
});

templates.run();
