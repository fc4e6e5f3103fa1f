import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, DeleteStackCommand, DescribeStackEventsCommand, DescribeStacksCommand, UpdateStackCommand, type StackEvent } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { ANY_LOCAL_CREDENTIALS } from '../../src/local/access/credentials';
import { signedLocalFetch } from '../../src/local/access/sign';
import { outputsOf, settle, startTestCloud, zip, type TestCloud } from './helpers';

const CODE_KEY = 'custom/widgets.zip';
const AUDIT = 'widget-audit';

/**
 * A custom resource provider: it keeps every request it gets in the audit bucket (through the SDK
 * the runtime provides, so through the local cloud's endpoint), then answers as `Mode` says.
 */
const HANDLER = `
  const { S3Client, PutObjectCommand } = require('@aws-sdk/client-s3');
  const s3 = new S3Client({});
  const answer = (event, body) => fetch(event.ResponseURL, { method: 'PUT', body: JSON.stringify({
    StackId: event.StackId, RequestId: event.RequestId, LogicalResourceId: event.LogicalResourceId, ...body }) });
  // As AWS's cfn-response module (and Serverless v3's custom resources) send it: HTTPS on port 443, whatever the URL says.
  const answerOn443 = (event, body) => new Promise((resolve, reject) => {
    const url = new URL(event.ResponseURL);
    const text = JSON.stringify({ StackId: event.StackId, RequestId: event.RequestId, LogicalResourceId: event.LogicalResourceId, ...body });
    const request = require('https').request({ hostname: url.hostname, port: 443, path: url.pathname + url.search, method: 'PUT', headers: { 'content-type': '', 'content-length': text.length } }, resolve);
    request.on('error', reject);
    request.end(text);
  });
  exports.handler = async (event) => {
    const p = event.ResourceProperties;
    await s3.send(new PutObjectCommand({ Bucket: '${AUDIT}', Key: event.LogicalResourceId + '/' + event.RequestType + '/' + event.RequestId, Body: JSON.stringify(event) }));
    if (p.Mode === 'fail' && event.RequestType !== 'Delete') return answer(event, { Status: 'FAILED', Reason: 'the widget is broken', PhysicalResourceId: 'broken' });
    if (p.Mode === 'throw' && event.RequestType !== 'Delete') throw new Error('the handler crashed');
    if (p.Mode === 'anonymous') return answer(event, { Status: 'SUCCESS' });
    if (p.Mode === 'cfn-response') return answerOn443(event, { Status: 'SUCCESS', PhysicalResourceId: 'widget-' + p.Name, Data: { Value: 'hello ' + p.Name, Count: p.Count } });
    await answer(event, { Status: 'SUCCESS', PhysicalResourceId: 'widget-' + p.Name, Data: { Value: 'hello ' + p.Name, Count: p.Count } });
  };`;

const provider = {
  Type: 'AWS::Lambda::Function',
  Properties: { Code: { S3Bucket: 'deploys', S3Key: CODE_KEY }, Handler: 'widgets.handler', Runtime: 'nodejs20.x', Role: 'arn:aws:iam::000000000000:role/widgets', Timeout: 10 },
};
const serviceToken = { 'Fn::GetAtt': ['Provider', 'Arn'] };

function widgetStack(name: string, extra: Record<string, unknown> = {}) {
  return {
    Resources: {
      Provider: provider,
      Widget: { Type: 'Custom::Widget', Properties: { ServiceToken: serviceToken, Name: name, Count: 3, Enabled: true } },
      ...extra,
    },
    Outputs: { Value: { Value: { 'Fn::GetAtt': ['Widget', 'Value'] } }, Count: { Value: { 'Fn::GetAtt': ['Widget', 'Count'] } }, WidgetId: { Value: { Ref: 'Widget' } } },
  };
}

interface Context {
  t: TestCloud;
}

const customResources = suite<Context>('custom resources in the local cloud');

customResources.before(async (context) => {
  context.t = await startTestCloud();
  await context.t.s3.send(new CreateBucketCommand({ Bucket: 'deploys' }));
  await context.t.s3.send(new CreateBucketCommand({ Bucket: AUDIT }));
  await context.t.s3.send(new PutObjectCommand({ Bucket: 'deploys', Key: CODE_KEY, Body: await zip({ 'widgets.js': HANDLER }) }));
});

customResources.after(async (context) => {
  await context.t.stop();
});

/** The requests the provider received for one resource, by request type. */
async function requests(t: TestCloud, logicalId: string, type: string): Promise<Record<string, any>[]> {
  const listed = await t.s3.send(new ListObjectsV2Command({ Bucket: AUDIT, Prefix: `${logicalId}/${type}/` }));
  return Promise.all((listed.Contents ?? []).map(async ({ Key }) => JSON.parse(await (await t.s3.send(new GetObjectCommand({ Bucket: AUDIT, Key }))).Body!.transformToString())));
}

async function events(t: TestCloud, stackName: string): Promise<StackEvent[]> {
  return (await t.cfn.send(new DescribeStackEventsCommand({ StackName: stackName }))).StackEvents!.reverse();
}

customResources('a Custom:: resource backed by a function gets the Create request and its Data reaches the outputs', async ({ t }) => {
  const { StackId } = await t.cfn.send(new CreateStackCommand({ StackName: 'widgets', TemplateBody: JSON.stringify(widgetStack('alice')) }));
  const stack = await settle(t.cfn, 'widgets');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE');
  assert.equal(outputsOf(stack), { Value: 'hello alice', Count: '3', WidgetId: 'widget-alice' });
  const [create] = await requests(t, 'Widget', 'Create');
  const providerArn = 'arn:aws:lambda:us-east-1:000000000000:function:' + create.ServiceToken.split(':function:')[1];
  assert.equal(
    { ...create, RequestId: typeof create.RequestId, ResponseURL: create.ResponseURL.replace(/[0-9a-f-]{36}$/, '<token>') },
    {
      RequestType: 'Create',
      ServiceToken: providerArn,
      ResponseURL: `${t.cloud.url}/_fw/custom-resource-response/<token>`,
      StackId,
      RequestId: 'string',
      LogicalResourceId: 'Widget',
      ResourceType: 'Custom::Widget',
      // CloudFormation sends every property value as a string.
      ResourceProperties: { ServiceToken: providerArn, Name: 'alice', Count: '3', Enabled: 'true' },
    },
  );
  const completed = (await events(t, 'widgets')).find((event) => event.LogicalResourceId === 'Widget' && event.ResourceStatus === 'CREATE_COMPLETE');
  assert.equal([completed?.PhysicalResourceId, completed?.ResourceStatusReason], ['widget-alice', undefined]);
});

customResources('an Update carries OldResourceProperties; a new PhysicalResourceId makes the cleanup delete the old one', async ({ t }) => {
  await t.cfn.send(new UpdateStackCommand({ StackName: 'widgets', TemplateBody: JSON.stringify(widgetStack('bob')) }));
  const stack = await settle(t.cfn, 'widgets');
  assert.is(stack.StackStatus, 'UPDATE_COMPLETE');
  assert.equal(outputsOf(stack), { Value: 'hello bob', Count: '3', WidgetId: 'widget-bob' });
  const [update] = await requests(t, 'Widget', 'Update');
  assert.equal(
    [update.PhysicalResourceId, update.ResourceProperties.Name, update.OldResourceProperties],
    ['widget-alice', 'bob', { ServiceToken: update.ServiceToken, Name: 'alice', Count: '3', Enabled: 'true' }],
  );
  const deletes = await requests(t, 'Widget', 'Delete');
  assert.equal(
    deletes.map((request) => [request.PhysicalResourceId, request.ResourceProperties.Name, request.OldResourceProperties]),
    [['widget-alice', 'alice', undefined]],
  );
  const cleanup = (await events(t, 'widgets')).filter((event) => event.LogicalResourceId === 'Widget' && event.ResourceStatus === 'DELETE_COMPLETE');
  assert.equal(cleanup.map((event) => event.PhysicalResourceId), ['widget-alice']);
});

customResources('removing the stack sends Delete with the current physical id', async ({ t }) => {
  const { Stacks } = await t.cfn.send(new DescribeStacksCommand({ StackName: 'widgets' }));
  await t.cfn.send(new DeleteStackCommand({ StackName: 'widgets' }));
  // A deleted stack is found by its id only.
  assert.is((await settle(t.cfn, Stacks![0].StackId!)).StackStatus, 'DELETE_COMPLETE');
  const deletes = await requests(t, 'Widget', 'Delete');
  assert.equal(deletes.map((request) => request.PhysicalResourceId).sort(), ['widget-alice', 'widget-bob']);
});

customResources('a FAILED response fails the resource with its Reason; the rollback deletes what was made', async ({ t }) => {
  const template = widgetStack('carol', {
    Broken: { Type: 'AWS::CloudFormation::CustomResource', DependsOn: 'Widget', Properties: { ServiceToken: serviceToken, Name: 'dave', Mode: 'fail' } },
  });
  await t.cfn.send(new CreateStackCommand({ StackName: 'broken-widgets', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'broken-widgets');
  assert.is(stack.StackStatus, 'ROLLBACK_COMPLETE');
  const [create] = await requests(t, 'Broken', 'Create');
  const failed = (await events(t, 'broken-widgets')).find((event) => event.ResourceStatus === 'CREATE_FAILED');
  assert.equal(
    [failed?.LogicalResourceId, failed?.ResourceStatusReason],
    ['Broken', `Received response status [FAILED] from custom resource. Message returned: the widget is broken (RequestId: ${create.RequestId})`],
  );
  const rollback = (await events(t, 'broken-widgets')).find((event) => event.ResourceStatus === 'ROLLBACK_IN_PROGRESS');
  assert.is(rollback?.ResourceStatusReason, 'The following resource(s) failed to create: [Broken]. Rollback requested by user.');
  const deletes = (await requests(t, 'Widget', 'Delete')).filter((request) => request.StackId === stack.StackId);
  assert.equal(deletes.map((request) => request.PhysicalResourceId), ['widget-carol']);
});

customResources('a handler that throws without answering fails the resource at its ServiceTimeout', async ({ t }) => {
  const template = widgetStack('erin', {
    Crashing: { Type: 'Custom::Widget', Properties: { ServiceToken: serviceToken, Name: 'frank', Mode: 'throw', ServiceTimeout: 1 } },
  });
  await t.cfn.send(new CreateStackCommand({ StackName: 'crashing-widgets', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'crashing-widgets', 15_000);
  assert.is(stack.StackStatus, 'ROLLBACK_COMPLETE');
  const failed = (await events(t, 'crashing-widgets')).find((event) => event.ResourceStatus === 'CREATE_FAILED');
  assert.is(failed?.LogicalResourceId, 'Crashing');
  // The request id is the one the handler got; its audit copy may not be written yet when the time-out comes.
  assert.match(failed?.ResourceStatusReason ?? '', /^CloudFormation did not receive a response from your Custom Resource\. Please check your logs for requestId \[[0-9a-f-]{36}\]\.$/);
});

customResources('Fn::GetAtt of a key the response Data lacks fails as on AWS', async ({ t }) => {
  const template = widgetStack('gina', {
    Echo: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: { 'Fn::GetAtt': ['Widget', 'Colour'] } } },
  });
  const { StackId } = await t.cfn.send(new CreateStackCommand({ StackName: 'vague-widgets', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'vague-widgets');
  assert.is(stack.StackStatus, 'ROLLBACK_COMPLETE');
  const failed = (await events(t, 'vague-widgets')).find((event) => event.ResourceStatus === 'CREATE_FAILED');
  assert.equal(
    [failed?.LogicalResourceId, failed?.ResourceStatusReason],
    ['Echo', `CustomResource attribute error: Vendor response doesn't contain Colour key in object ${StackId}|Widget|widget-gina in region us-east-1`],
  );
});

customResources('a response without a PhysicalResourceId names the resource after the log stream, as cfn-response does', async ({ t }) => {
  const template = { Resources: { Provider: provider, Anonymous: { Type: 'Custom::Widget', Properties: { ServiceToken: serviceToken, Mode: 'anonymous' } } }, Outputs: { Id: { Value: { Ref: 'Anonymous' } } } };
  await t.cfn.send(new CreateStackCommand({ StackName: 'anonymous-widgets', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'anonymous-widgets');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE');
  assert.match(outputsOf(stack).Id, /^\d{4}\/\d{2}\/\d{2}\/\[\$LATEST\][0-9a-f]{32}$/);
});

customResources("a handler answering as cfn-response does (HTTPS, port 443) reaches the ResponseURL at the local cloud's address", async ({ t }) => {
  const template = { Resources: { Provider: provider, Widget: { Type: 'Custom::Widget', Properties: { ServiceToken: serviceToken, Mode: 'cfn-response', Name: 'tls', Count: 1 } } }, Outputs: { Value: { Value: { 'Fn::GetAtt': ['Widget', 'Value'] } } } };
  await t.cfn.send(new CreateStackCommand({ StackName: 'tls-widgets', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'tls-widgets');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE');
  assert.equal(outputsOf(stack), { Value: 'hello tls' });
});

customResources('an update may not point the resource at another service token', async ({ t }) => {
  await t.cfn.send(new CreateStackCommand({ StackName: 'moved-widgets', TemplateBody: JSON.stringify(widgetStack('ivan')) }));
  assert.is((await settle(t.cfn, 'moved-widgets')).StackStatus, 'CREATE_COMPLETE');
  const moved = widgetStack('ivan');
  (moved as { Resources: Record<string, unknown> }).Resources = { ...moved.Resources, Other: provider, Widget: { ...moved.Resources.Widget, Properties: { ...moved.Resources.Widget.Properties, ServiceToken: { 'Fn::GetAtt': ['Other', 'Arn'] } } } };
  await t.cfn.send(new UpdateStackCommand({ StackName: 'moved-widgets', TemplateBody: JSON.stringify(moved) }));
  assert.is((await settle(t.cfn, 'moved-widgets')).StackStatus, 'UPDATE_ROLLBACK_COMPLETE');
  const failed = (await events(t, 'moved-widgets')).find((event) => event.ResourceStatus === 'UPDATE_FAILED');
  assert.equal([failed?.LogicalResourceId, failed?.ResourceStatusReason], ['Widget', 'Modifying service token is not allowed.']);
});

customResources('a custom resource whose ServiceToken is an SNS topic is recorded, and its events say so', async ({ t }) => {
  const template = { Resources: { Notified: { Type: 'Custom::Notified', Properties: { ServiceToken: 'arn:aws:sns:us-east-1:000000000000:hooks', Name: 'x' } } } };
  await t.cfn.send(new CreateStackCommand({ StackName: 'sns-widgets', TemplateBody: JSON.stringify(template) }));
  const stack = await settle(t.cfn, 'sns-widgets');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE');
  const completed = (await events(t, 'sns-widgets')).find((event) => event.ResourceStatus === 'CREATE_COMPLETE' && event.LogicalResourceId === 'Notified');
  assert.is(completed?.ResourceStatusReason, 'Resource recorded, not emulated by the local cloud');
});

customResources('the deploy report names the custom resources that are recorded, not run, and why; the ones that run are not listed', async ({ t }) => {
  const fwHandler = 'arn:aws:lambda:us-east-1:000000000000:function:app-dev-custom-resource-existing-cup';
  const template = widgetStack('hana', {
    Pool: { Type: 'Custom::CognitoUserPool', Properties: { ServiceToken: fwHandler, UserPoolName: 'legacy' } },
    Notified: { Type: 'Custom::Notified', Properties: { ServiceToken: 'arn:aws:sns:us-east-1:000000000000:hooks' } },
  });
  await t.cfn.send(new CreateStackCommand({ StackName: 'reported-widgets', TemplateBody: JSON.stringify(template) }));
  assert.is((await settle(t.cfn, 'reported-widgets')).StackStatus, 'CREATE_COMPLETE');
  const response = await signedLocalFetch(`${t.cloud.url}/_fw/deploy-report?stack=reported-widgets`, {}, ANY_LOCAL_CREDENTIALS);
  assert.equal(((await response.json()) as { notEnforced: string[] }).notEnforced, [
    'Custom::CognitoUserPool (Pool): recorded, not emulated',
    'Custom::Notified (Notified): recorded, not emulated',
    'Notified: custom resource not run: its ServiceToken is an SNS topic; the local cloud invokes Lambda-backed custom resources only',
    'Pool: custom resource not run: its handler calls Cognito, which the local cloud does not emulate',
  ]);
});

customResources.run();
