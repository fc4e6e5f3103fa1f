import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Capability, CreateChangeSetCommand, CreateStackCommand, DeleteStackCommand, DescribeChangeSetCommand, ExecuteChangeSetCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { outputsOf, settle, signatureShaped, startTestCloud, zip, type TestCloud } from './helpers';

// Templates `serverless package` (v3.40) wrote for a service with every common event type.
const fixtures = join(__dirname, '..', '..', '..', 'test', 'local', 'fixtures');
const createTemplate = readFileSync(join(fixtures, 'serverless-create-stack.json'), 'utf8');
const updateTemplate = readFileSync(join(fixtures, 'serverless-update-stack.json'), 'utf8');
const HANDLER = `exports.hello = async (event) => {
  console.log('EVENT ' + JSON.stringify(event).slice(0, 60));
  return { statusCode: 200, body: JSON.stringify({ id: (event.pathParameters || {}).id, table: process.env.TABLE }) };
};`;

const sls = suite<{ t: TestCloud }>('a Serverless Framework v3 template on the local cloud');

sls.before(async (context) => {
  context.t = await startTestCloud();
});
sls.after(async (context) => {
  await context.t.stop();
});

sls('deploys the way Serverless does, answers its endpoints, and is removed', async ({ t }) => {
  const capabilities: Capability[] = ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM'];
  await t.cfn.send(new CreateStackCommand({ StackName: 'app-dev', TemplateBody: createTemplate, Capabilities: capabilities }));
  const created = await settle(t.cfn, 'app-dev');
  assert.is(created.StackStatus, 'CREATE_COMPLETE');
  const bucket = outputsOf(created).ServerlessDeploymentBucketName;
  assert.match(bucket, /^app-dev-serverlessdeploymentbucket-[a-z0-9]{12}$/);

  const template = JSON.parse(updateTemplate);
  const codeKey: string = template.Resources.HelloLambdaFunction.Properties.Code.S3Key;
  const templateKey = codeKey.replace(/app\.zip$/, 'compiled-cloudformation-template.json');
  await t.s3.send(new PutObjectCommand({ Bucket: bucket, Key: codeKey, Body: await zip({ 'handler.js': HANDLER }) }));
  await t.s3.send(new PutObjectCommand({ Bucket: bucket, Key: templateKey, Body: updateTemplate }));
  await t.cfn.send(new CreateChangeSetCommand({ StackName: 'app-dev', ChangeSetName: 'deploy', ChangeSetType: 'UPDATE', TemplateURL: `https://${bucket}.s3.amazonaws.com/${templateKey}`, Capabilities: capabilities }));
  const changeSet = await t.cfn.send(new DescribeChangeSetCommand({ StackName: 'app-dev', ChangeSetName: 'deploy' }));
  assert.is(changeSet.Status, 'CREATE_COMPLETE');
  assert.is(changeSet.Changes!.length, Object.keys(template.Resources).length - 2);
  await t.cfn.send(new ExecuteChangeSetCommand({ StackName: 'app-dev', ChangeSetName: 'deploy' }));
  const updated = await settle(t.cfn, 'app-dev');
  assert.is(updated.StackStatus, 'UPDATE_COMPLETE', updated.StackStatusReason);

  const outputs = outputsOf(updated);
  const http = await fetch(`${outputs.HttpApiUrl}/users/7`);
  const tableName = outputs.TableName;
  assert.equal(await http.json(), { id: '7', table: tableName });
  const rest = await fetch(`${outputs.ServiceEndpoint}/items/8`);
  assert.equal(await rest.json(), { id: '8', table: tableName });
  const url = await fetch(outputs.HelloLambdaFunctionUrl);
  assert.is(url.status, 200);

  const published = await fetch(t.cloud.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...signatureShaped('sns') },
    body: new URLSearchParams({ Action: 'Publish', Version: '2010-03-31', TopicArn: 'arn:aws:sns:us-east-1:000000000000:alerts', Message: 'm' }),
  });
  assert.is(published.status, 200);
  const logs = new CloudWatchLogsClient({ ...t.config, maxAttempts: 1 });
  let snsEvents = 0;
  for (const deadline = Date.now() + 8000; Date.now() < deadline && snsEvents === 0; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { events } = await logs.send(new FilterLogEventsCommand({ logGroupName: '/aws/lambda/app-dev-hello', filterPattern: 'aws:sns' }));
    snsEvents = events!.length;
  }
  logs.destroy();
  assert.is(snsEvents, 1);

  await t.cfn.send(new DeleteStackCommand({ StackName: 'app-dev' }));
  const blocked = await settle(t.cfn, 'app-dev');
  assert.is(blocked.StackStatus, 'DELETE_FAILED');
  const { Contents } = await t.s3.send(new ListObjectsV2Command({ Bucket: bucket }));
  await t.s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: Contents!.map((o) => ({ Key: o.Key! })) } }));
  await t.cfn.send(new DeleteStackCommand({ StackName: 'app-dev' }));
  assert.is((await settle(t.cfn, updated.StackId!)).StackStatus, 'DELETE_COMPLETE');
});

sls.run();
