import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  DeleteLayerVersionCommand,
  GetFunctionConfigurationCommand,
  GetLayerVersionByArnCommand,
  GetLayerVersionCommand,
  InvokeCommand,
  LambdaClient,
  ListLayersCommand,
  ListLayerVersionsCommand,
  PublishLayerVersionCommand,
} from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { failure, settle, startTestCloud, zip, type TestCloud } from './helpers';
import { ANY_LOCAL_CREDENTIALS } from '../../src/local/access/credentials';
import { signedLocalFetch } from '../../src/local/access/sign';

type Context = { t: TestCloud; lambda: LambdaClient };
const layers = suite<Context>('Lambda layers in the local cloud: made by stacks and the API, their files where functions look for /opt');

const ROLE = 'arn:aws:iam::000000000000:role/app';
const FOREIGN_LAYER = 'arn:aws:lambda:us-east-1:123456789012:layer:someone-elses:3';

const NODE_HANDLER = `exports.handler = async () => ({
  greeting: require('greeting')(),
  util: require('/opt/nodejs/lib/util').name,
  tool: require('child_process').execFileSync('layer-tool', { encoding: 'utf8' }).trim(),
  overridden: require('/opt/nodejs/lib/which').which,
});`;

const PYTHON_HANDLER = `import helper
def handler(event, context):
    return {'helper': helper.NAME}
`;

function template(commonVersion: string) {
  const fn = (name: string, handler: string, runtime: string, layers: unknown[]) => ({
    Type: 'AWS::Lambda::Function',
    Properties: { FunctionName: `layers-dev-${name}`, Code: { S3Bucket: 'deploys', S3Key: 'code.zip' }, Handler: handler, Runtime: runtime, Role: ROLE, Timeout: 10, Layers: layers },
  });
  return {
    Resources: {
      CommonLambdaLayer: {
        Type: 'AWS::Lambda::LayerVersion',
        Properties: { LayerName: 'layers-dev-common', Content: { S3Bucket: 'deploys', S3Key: `common-${commonVersion}.zip` }, CompatibleRuntimes: ['nodejs20.x', 'python3.12'], Description: `common ${commonVersion}` },
      },
      OverrideLambdaLayer: { Type: 'AWS::Lambda::LayerVersion', Properties: { LayerName: 'layers-dev-override', Content: { S3Bucket: 'deploys', S3Key: 'override.zip' } } },
      NodeLambdaFunction: fn('node', 'handler.handler', 'nodejs20.x', [{ Ref: 'CommonLambdaLayer' }, { Ref: 'OverrideLambdaLayer' }]),
      PythonLambdaFunction: fn('python', 'main.handler', 'python3.12', [{ Ref: 'CommonLambdaLayer' }]),
      ForeignLambdaFunction: fn('foreign', 'handler.handler', 'nodejs20.x', [FOREIGN_LAYER]),
    },
    Outputs: { CommonLayer: { Value: { Ref: 'CommonLambdaLayer' } } },
  };
}

layers.before(async (context) => {
  context.t = await startTestCloud();
  context.lambda = new LambdaClient({ ...context.t.config, maxAttempts: 1 });
  const { t } = context;
  await t.s3.send(new CreateBucketCommand({ Bucket: 'deploys' }));
  const put = async (Key: string, Body: Buffer) => t.s3.send(new PutObjectCommand({ Bucket: 'deploys', Key, Body }));
  await put('code.zip', await zip({ 'handler.js': NODE_HANDLER, 'main.py': PYTHON_HANDLER }));
  for (const version of ['1', '2']) {
    await put(
      `common-${version}.zip`,
      await zip(
        {
          'nodejs/node_modules/greeting/index.js': `module.exports = () => 'hello from layer ${version}';`,
          'nodejs/lib/util.js': `exports.name = 'util';`,
          'nodejs/lib/which.js': `exports.which = 'common';`,
          'python/helper.py': `NAME = 'helper ${version}'\n`,
          'bin/layer-tool': '#!/bin/sh\necho tool ran\n',
        },
        ['bin/layer-tool'],
      ),
    );
  }
  await put('override.zip', await zip({ 'nodejs/lib/which.js': `exports.which = 'override';` }));
  await t.cfn.send(new CreateStackCommand({ StackName: 'layers-dev', TemplateBody: JSON.stringify(template('1')) }));
  const stack = await settle(t.cfn, 'layers-dev');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
});
layers.after(async ({ t, lambda }) => {
  lambda.destroy();
  await t.stop();
});

const invoke = async (lambda: LambdaClient, FunctionName: string) => {
  const output = await lambda.send(new InvokeCommand({ FunctionName }));
  return { error: output.FunctionError, payload: JSON.parse(Buffer.from(output.Payload!).toString('utf8')) as unknown };
};

layers('a Node.js function finds its layers\' modules, files under /opt, programs on the PATH, and a later layer\'s file wins', async ({ lambda }) => {
  assert.equal(await invoke(lambda, 'layers-dev-node'), { error: undefined, payload: { greeting: 'hello from layer 1', util: 'util', tool: 'tool ran', overridden: 'override' } });
});

layers('a Python function imports from its layer\'s python folder', async ({ lambda }) => {
  assert.equal(await invoke(lambda, 'layers-dev-python'), { error: undefined, payload: { helper: 'helper 1' } });
});

layers('the configuration lists the layers; GetLayerVersion, GetLayerVersionByArn, ListLayerVersions and ListLayers describe them', async ({ t, lambda }) => {
  const arn = 'arn:aws:lambda:us-east-1:000000000000:layer:layers-dev-common:1';
  const configuration = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'layers-dev-python' }));
  assert.equal(configuration.Layers?.map((layer) => [layer.Arn, (layer.CodeSize ?? 0) > 100]), [[arn, true]]);
  const version = await lambda.send(new GetLayerVersionCommand({ LayerName: 'layers-dev-common', VersionNumber: 1 }));
  assert.equal(
    [version.LayerArn, version.LayerVersionArn, version.Version, version.Description, version.CompatibleRuntimes, version.Content?.CodeSha256?.length],
    ['arn:aws:lambda:us-east-1:000000000000:layer:layers-dev-common', arn, 1, 'common 1', ['nodejs20.x', 'python3.12'], 44],
  );
  assert.match(String(version.CreatedDate), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
  // Content.Location is a URL any client can download the zip from.
  const downloaded = await fetch(version.Content!.Location!);
  assert.is(downloaded.status, 200);
  assert.is(Buffer.from(await downloaded.arrayBuffer()).length, version.Content?.CodeSize);
  assert.is((await lambda.send(new GetLayerVersionByArnCommand({ Arn: arn }))).Version, 1);
  assert.equal((await lambda.send(new ListLayerVersionsCommand({ LayerName: 'layers-dev-common' }))).LayerVersions?.map((item) => item.LayerVersionArn), [arn]);
  const listed = await lambda.send(new ListLayersCommand({}));
  assert.equal(listed.Layers?.map((layer) => [layer.LayerName, layer.LatestMatchingVersion?.Version]), [['layers-dev-common', 1], ['layers-dev-override', 1]]);
  const missing = await failure(lambda.send(new GetLayerVersionCommand({ LayerName: 'layers-dev-common', VersionNumber: 9 })));
  assert.equal([missing?.name, missing?.message, missing?.$metadata?.httpStatusCode], ['ResourceNotFoundException', 'The resource you requested does not exist.', 404]);
  void t;
});

layers('the deploy names a layer the local cloud does not have', async ({ t }) => {
  const response = await signedLocalFetch(`${t.cloud.url}/_fw/deploy-report?stack=layers-dev`, {}, ANY_LOCAL_CREDENTIALS);
  const report = (await response.json()) as { notEnforced: string[] };
  assert.ok(report.notEnforced.includes(`ForeignLambdaFunction: layer ${FOREIGN_LAYER} is not in the local cloud; its files are missing when the function runs`), report.notEnforced.join('\n'));
});

layers('a stack update that changes a layer publishes version 2, and the function runs it', async ({ t, lambda }) => {
  await t.cfn.send(new UpdateStackCommand({ StackName: 'layers-dev', TemplateBody: JSON.stringify(template('2')) }));
  const stack = await settle(t.cfn, 'layers-dev');
  assert.is(stack.StackStatus, 'UPDATE_COMPLETE', stack.StackStatusReason);
  assert.is(stack.Outputs?.find((output) => output.OutputKey === 'CommonLayer')?.OutputValue, 'arn:aws:lambda:us-east-1:000000000000:layer:layers-dev-common:2');
  assert.equal(((await invoke(lambda, 'layers-dev-node')).payload as { greeting: string }).greeting, 'hello from layer 2');
  assert.equal((await invoke(lambda, 'layers-dev-python')).payload, { helper: 'helper 2' });
});

layers('PublishLayerVersion with zip bytes, then DeleteLayerVersion; a deleted version\'s number is never given again', async ({ lambda }) => {
  const ZipFile = await zip({ 'nodejs/node_modules/extra/index.js': 'module.exports = 1;' });
  const first = await lambda.send(new PublishLayerVersionCommand({ LayerName: 'api-layer', Content: { ZipFile }, CompatibleRuntimes: ['nodejs20.x'], LicenseInfo: 'MIT' }));
  assert.equal([first.Version, first.LayerVersionArn, first.LicenseInfo, first.Content?.CodeSize], [1, 'arn:aws:lambda:us-east-1:000000000000:layer:api-layer:1', 'MIT', ZipFile.length]);
  await lambda.send(new DeleteLayerVersionCommand({ LayerName: 'api-layer', VersionNumber: 1 }));
  assert.is((await failure(lambda.send(new GetLayerVersionCommand({ LayerName: 'api-layer', VersionNumber: 1 }))))?.name, 'ResourceNotFoundException');
  const second = await lambda.send(new PublishLayerVersionCommand({ LayerName: 'arn:aws:lambda:us-east-1:000000000000:layer:api-layer', Content: { ZipFile } }));
  assert.is(second.Version, 2);
  const stackMade = await failure(lambda.send(new DeleteLayerVersionCommand({ LayerName: 'layers-dev-common', VersionNumber: 2 })));
  assert.is(stackMade?.name, 'InvalidParameterValueException');
});

layers.run();
