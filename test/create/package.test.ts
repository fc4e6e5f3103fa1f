import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { childEnv, fwBin, removeTempDirs, repoRoot, runCreateCli, tempDir } from './helpers';

/**
 * `fw create` then `fw package` for every template, and `fw package` for every example:
 * what a new user does first. Runs the real binary (bin/fw.js) in a copy, so the
 * repository's examples/ never gets a .serverless/ folder.
 */
interface Packaged {
  functions: string[];
  template: { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>; Outputs?: Record<string, unknown> };
  zips: string[];
}

function fwPackage(dir: string, shown: string): Packaged {
  const run = spawnSync(process.execPath, [fwBin, 'package'], { cwd: dir, encoding: 'utf8', env: childEnv(), timeout: 120_000 });
  if (run.status !== 0) {
    assert.unreachable(`fw package failed for ${shown} (exit ${run.status ?? run.signal}):\n${run.stderr}${run.stdout}`);
  }
  const file = join(dir, '.serverless', 'cloudformation-template-update-stack.json');
  assert.ok(existsSync(file), `fw package wrote no .serverless/cloudformation-template-update-stack.json for ${shown}`);
  const template = JSON.parse(readFileSync(file, 'utf8')) as Packaged['template'];
  const functions = Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
    .map(([id]) => id)
    .sort();
  return { functions, template, zips: readdirSync(join(dir, '.serverless')).filter((name) => name.endsWith('.zip')).sort() };
}

const expectedFunctions: Record<string, string[]> = {
  'node-http-api': ['GetItemLambdaFunction', 'ListItemsLambdaFunction'],
  'node-rest-api': ['CreateNoteLambdaFunction', 'GetNoteLambdaFunction', 'ListNotesLambdaFunction'],
  'node-s3-upload': ['OnUploadLambdaFunction'],
  'node-scheduled': ['ReportLambdaFunction'],
  'node-typescript': ['HelloLambdaFunction'],
  'python-http-api': ['GetItemLambdaFunction', 'ListItemsLambdaFunction'],
};

const packaging = suite('fw package on new services and examples');
packaging.after.each(removeTempDirs);

for (const [template, functions] of Object.entries(expectedFunctions)) {
  packaging(`a service created from ${template} packages as is`, async () => {
    const cwd = tempDir('package');
    const created = await runCreateCli(['create', '-t', template, '-n', 'fresh'], cwd);
    assert.is(created.code, 0, created.stderr);
    const packaged = fwPackage(join(cwd, 'fresh'), `a new ${template} service`);
    assert.equal(packaged.functions, functions);
    assert.equal(packaged.zips, ['fresh.zip']);
  });
}

for (const example of [...Object.keys(expectedFunctions), 'orders']) {
  packaging(`examples/${example} packages`, () => {
    const dir = join(tempDir('example'), example);
    cpSync(join(repoRoot, 'examples', example), dir, { recursive: true, filter: (source) => !/[\\/](\.serverless|node_modules)$/.test(source) });
    const packaged = fwPackage(dir, `examples/${example}`);
    if (example !== 'orders') {
      assert.equal(packaged.functions, expectedFunctions[example]);
      return;
    }
    assert.equal(packaged.functions, [
      'AttachReceiptLambdaFunction', 'CreateOrderLambdaFunction', 'GetOrderLambdaFunction',
      'HealthLambdaFunction', 'NightlyReportLambdaFunction', 'ProcessOrderLambdaFunction',
    ]);
    const { Resources, Outputs } = packaged.template;
    assert.equal(Resources.ProcessOrderLogGroup, {
      Type: 'AWS::Logs::LogGroup',
      Properties: { LogGroupName: '/aws/lambda/orders-dev-processOrder', RetentionInDays: 14 },
    });
    assert.equal(Outputs?.OrdersTableName, { Description: 'Table holding every order', Value: { Ref: 'OrdersTable' } });
    assert.equal(
      ['OrdersTable', 'OrdersQueue', 'OrdersDeadLetterQueue', 'S3BucketOrdersdevreceipts', 'ProcessOrderEventSourceMappingSQSOrdersQueue', 'NightlyReportEventsRuleSchedule1']
        .map((id) => Resources[id]?.Type),
      ['AWS::DynamoDB::Table', 'AWS::SQS::Queue', 'AWS::SQS::Queue', 'AWS::S3::Bucket', 'AWS::Lambda::EventSourceMapping', 'AWS::Events::Rule'],
    );
  });
}

packaging.run();
