import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { splitTemplate, splittingConfig, limitsExceeded, type SplitOptions } from '../../src/synth/split';
import type { ServiceConfig } from '../../src/constructs/model';
import type { Template } from '../../src/synth/template';
import { synth, versionId } from '../helpers/synth';
import { placementMoves } from '../../src/deploy/deploy';
import { describeMove } from '../../src/synth/split';

const URL = (file: string) => `https://example/${file}`;
const perFunction = (extra: Partial<SplitOptions> = {}): SplitOptions => ({ mode: 'per-function', templateUrl: URL, ...extra });

const withTable = (): Template =>
  synth({
    functions: {
      hello: { handler: 'h.hello', environment: { TABLE: { Ref: 'Table' } as never, TABLE_ARN: { 'Fn::Sub': '${Table.Arn}/index/*' } as never }, events: [{ httpApi: 'GET /hello' }] },
    },
    resources: { Resources: { Table: { Type: 'AWS::DynamoDB::Table', Properties: { TableName: 'items' } } } },
  } as Partial<ServiceConfig>);

const split = suite('splitTemplate');

split('leaves a template under every limit whole in auto mode', () => {
  const template = withTable();
  const result = splitTemplate(template, { mode: 'auto', templateUrl: URL });
  assert.is(result.root, template);
  assert.equal(result.nested, []);
  assert.equal(new Set(Object.values(result.placement.resources)), new Set(['root']));
});

split("moves a function's resources into its nested stack and keeps shared and user resources in the root", () => {
  const template = withTable();
  const result = splitTemplate(template, perFunction({ pinned: ['Table', 'ServerlessDeploymentBucket', 'ServerlessDeploymentBucketPolicy'] }));
  assert.equal(result.nested.map(n => [n.name, n.file]), [['HelloNestedStack', 'cloudformation-template-nested-HelloNestedStack.json']]);
  const nested = result.nested[0].template;
  assert.equal(Object.keys(nested.Resources).sort(), ['HelloLambdaFunction', 'HelloLambdaPermissionHttpApi', 'HelloLogGroup', versionId(template, 'Hello')!, 'HttpApiIntegrationHello', 'HttpApiRouteGetHello'].sort());
  assert.equal(Object.keys(result.root.Resources), ['ServerlessDeploymentBucket', 'ServerlessDeploymentBucketPolicy', 'IamRoleLambdaExecution', 'HttpApi', 'HttpApiStage', 'Table', 'HelloNestedStack']);
});

split('a function in a nested stack reads a table of the root stack through a parameter', () => {
  const template = withTable();
  const result = splitTemplate(template, perFunction({ pinned: ['Table'] }));
  const nested = result.nested[0].template;
  assert.equal(nested.Parameters, {
    HttpApi: { Type: 'String' },
    IamRoleLambdaExecutionAttArn: { Type: 'String' },
    ServerlessDeploymentBucket: { Type: 'String' },
    Table: { Type: 'String' },
    TableAttArn: { Type: 'String' },
  });
  const fn = nested.Resources.HelloLambdaFunction as { Properties: { Environment: unknown; Role: unknown } };
  assert.equal(fn.Properties.Environment, { Variables: { TABLE: { Ref: 'Table' }, TABLE_ARN: { 'Fn::Sub': '${TableAttArn}/index/*' } } });
  assert.equal(fn.Properties.Role, { Ref: 'IamRoleLambdaExecutionAttArn' });
  assert.equal(result.root.Resources.HelloNestedStack, {
    Type: 'AWS::CloudFormation::Stack',
    Properties: {
      TemplateURL: 'https://example/cloudformation-template-nested-HelloNestedStack.json',
      Parameters: {
        HttpApi: { Ref: 'HttpApi' },
        IamRoleLambdaExecutionAttArn: { 'Fn::GetAtt': ['IamRoleLambdaExecution', 'Arn'] },
        ServerlessDeploymentBucket: { Ref: 'ServerlessDeploymentBucket' },
        Table: { Ref: 'Table' },
        TableAttArn: { 'Fn::GetAtt': ['Table', 'Arn'] },
      },
    },
  });
});

split("an output of a nested resource in the root Outputs reads the nested stack's output", () => {
  const template = withTable();
  const version = versionId(template, 'Hello')!;
  const result = splitTemplate(template, perFunction());
  assert.equal(result.root.Outputs!.HelloLambdaFunctionQualifiedArn, {
    Description: 'Current Lambda function version',
    Value: { 'Fn::GetAtt': ['HelloNestedStack', `Outputs.${version}`] },
    Export: { Name: 'sls-app-dev-HelloLambdaFunctionQualifiedArn' },
  });
  assert.equal(result.nested[0].template.Outputs, { [version]: { Value: { Ref: version } } });
});

split('a DependsOn on a resource in another stack becomes a DependsOn on that nested stack', () => {
  const template = synth({ functions: { a: { handler: 'h.a', events: [{ http: 'GET a' }] }, b: { handler: 'h.b', events: [{ http: 'GET b' }] } } } as Partial<ServiceConfig>);
  const result = splitTemplate(template, perFunction());
  const deployment = Object.entries(result.root.Resources).find(([id]) => id.startsWith('ApiGatewayDeployment'))![1];
  assert.equal(deployment.DependsOn, ['ANestedStack', 'BNestedStack']);
  const method = result.nested.find(n => n.name === 'ANestedStack')!.template.Resources.ApiGatewayMethodAGet;
  assert.equal(method.DependsOn, ['ALambdaPermissionApiGateway']);
});

split('a reference from one nested stack to another goes through an output and a parameter', () => {
  const template = synth({
    functions: { a: { handler: 'h.a', environment: { B_ARN: { 'Fn::GetAtt': ['BLambdaFunction', 'Arn'] } as never } }, b: { handler: 'h.b' } },
  } as Partial<ServiceConfig>);
  const result = splitTemplate(template, perFunction());
  const a = result.nested.find(n => n.name === 'ANestedStack')!.template;
  const b = result.nested.find(n => n.name === 'BNestedStack')!.template;
  assert.equal((a.Resources.ALambdaFunction as { Properties: { Environment: unknown } }).Properties.Environment, { Variables: { B_ARN: { Ref: 'BLambdaFunctionAttArn' } } });
  assert.equal(b.Outputs!.BLambdaFunctionAttArn, { Value: { 'Fn::GetAtt': ['BLambdaFunction', 'Arn'] } });
  assert.equal((result.root.Resources.ANestedStack.Properties as { Parameters: Record<string, unknown> }).Parameters.BLambdaFunctionAttArn, {
    'Fn::GetAtt': ['BNestedStack', 'Outputs.BLambdaFunctionAttArn'],
  });
});

split('per-type puts each type of moved resource in its own nested stack', () => {
  const result = splitTemplate(withTable(), { mode: 'per-type', templateUrl: URL, pinned: ['Table'] });
  assert.equal(result.nested.map(n => n.name), [
    'ApiGatewayV2IntegrationNestedStack',
    'ApiGatewayV2RouteNestedStack',
    'LambdaFunctionNestedStack',
    'LambdaPermissionNestedStack',
    'LambdaVersionNestedStack',
    'LogsLogGroupNestedStack',
  ]);
});

split('keeps the previous placement, so adding a function moves nothing and a move is reported', () => {
  const config = (count: number) => ({ functions: Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, { handler: 'h.main', events: [{ httpApi: `GET /f${i}` }] }])) }) as Partial<ServiceConfig>;
  const first = splitTemplate(synth(config(20)), { mode: 'auto', templateUrl: URL, previousPlacement: { mode: 'auto', resources: { F0LambdaFunction: 'NestedStack1' } } });
  assert.ok(first.nested.length > 1);
  const second = splitTemplate(synth(config(21)), { mode: 'auto', templateUrl: URL, previousPlacement: first.placement });
  assert.equal(second.moves, []);
  for (const [id, stack] of Object.entries(first.placement.resources)) {
    if (!id.startsWith('ApiGatewayDeployment')) assert.is(second.placement.resources[id], stack, id);
  }
  const moved = splitTemplate(synth(config(20)), { mode: 'auto', templateUrl: URL, previousPlacement: { mode: 'per-function', resources: { F0LambdaFunction: 'F0NestedStack' } } });
  assert.equal(moved.moves.filter(move => move.logicalId === 'F0LambdaFunction'), [{ logicalId: 'F0LambdaFunction', from: 'F0NestedStack', to: 'root' }]);
});

split('splits a template over the resource limit into stacks that are each under every limit', () => {
  const functions = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`f${i}`, { handler: 'h.main', events: [{ httpApi: `GET /f${i}` }, { http: `GET r/f${i}` }] }]));
  const template = synth({ functions } as Partial<ServiceConfig>);
  assert.ok(limitsExceeded(template).length > 0);
  const result = splitTemplate(template, { mode: 'auto', templateUrl: URL });
  assert.ok(result.nested.length > 1);
  for (const { template: nested } of [{ template: result.root }, ...result.nested]) assert.equal(limitsExceeded(nested), []);
  const total = result.nested.reduce((sum, n) => sum + Object.keys(n.template.Resources).length, 0) + Object.keys(result.root.Resources).length - result.nested.length;
  assert.is(total, Object.keys(template.Resources).length);
});

split('refuses a split whose stacks would depend on each other', () => {
  const template = synth({
    functions: { a: { handler: 'h.a', environment: { TOPIC: { Ref: 'Alarm' } as never } } },
    resources: { Resources: { Alarm: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { 'Fn::GetAtt': ['ALambdaFunction', 'Arn'] } } } } },
  } as Partial<ServiceConfig>);
  assert.throws(() => splitTemplate(template, perFunction({ pinned: ['Alarm'] })), /depend on each other across stacks \(.*Alarm.*ANestedStack.*\)/);
});

split.run();

const config = suite('provider.stackSplitting');

config('reads a mode or an object, and refuses anything else with the config path', () => {
  assert.equal(splittingConfig(undefined), { mode: 'auto', moveUserResources: false });
  assert.equal(splittingConfig('per-function'), { mode: 'per-function', moveUserResources: false });
  assert.equal(splittingConfig(false), { mode: 'off', moveUserResources: false });
  assert.equal(splittingConfig({ mode: 'per-type', resources: 'nested' }), { mode: 'per-type', moveUserResources: true });
  assert.throws(() => splittingConfig('sometimes'), /Invalid configuration in 'provider.stackSplitting': expected one of "auto", "per-function", "per-type", "off", got "sometimes"/);
  assert.throws(() => splittingConfig({ resources: 'elsewhere' }), /'provider.stackSplitting.resources': expected "root" or "nested"/);
});

config.run();

const moves = suite('moves between stacks');

moves('a deploy reports each resource the new package puts in another stack than the deployed one', () => {
  const deployed = { placement: { mode: 'auto', resources: { HelloLambdaFunction: 'NestedStack1', Table: 'root', Gone: 'NestedStack2' } } };
  const packaged = { placement: { mode: 'auto', resources: { HelloLambdaFunction: 'NestedStack3', Table: 'root', New: 'NestedStack1' } } };
  const found = placementMoves(deployed as never, packaged as never);
  assert.equal(found, [{ logicalId: 'HelloLambdaFunction', from: 'NestedStack1', to: 'NestedStack3' }]);
  assert.is(
    describeMove(found[0]),
    'HelloLambdaFunction moves from nested stack NestedStack1 to nested stack NestedStack3: CloudFormation replaces it (a new physical resource; data it holds is lost)',
  );
  assert.equal(placementMoves(undefined, packaged as never), []);
});

moves('keeps function URL outputs in the root stack while function versions make room', () => {
  const functions = Object.fromEntries(Array.from({ length: 210 }, (_, i) => [`f${i}`, { handler: 'h.main', url: i === 0 }]));
  const result = splitTemplate(synth({ functions } as Partial<ServiceConfig>), { mode: 'auto', templateUrl: URL });
  const rootOutputs = Object.keys(result.root.Outputs ?? {});
  assert.equal(rootOutputs, ['ServerlessDeploymentBucketName', 'F0LambdaFunctionUrl']);
  const nestedOutputs = result.nested.flatMap(n => Object.keys(n.template.Outputs ?? {}));
  assert.ok(nestedOutputs.includes('F209LambdaFunctionQualifiedArn'));
});

moves.run();

const conditions = suite('splitting a template with conditions');

conditions('keeps a resource that uses a condition in the root stack, where the conditions are', () => {
  const template = synth({
    functions: { a: { handler: 'h.a', environment: { MODE: { 'Fn::If': ['IsProd', 'prod', 'dev'] } as never } }, b: { handler: 'h.b' } },
    resources: { Conditions: { IsProd: { 'Fn::Equals': ['dev', 'prod'] } } },
  } as Partial<ServiceConfig>);
  assert.ok(template.Conditions, 'the template has the condition');
  const result = splitTemplate(template, perFunction());
  assert.ok(result.root.Resources.ALambdaFunction, 'the function that uses the condition stays in the root stack');
  assert.ok(result.nested.find(n => n.name === 'BNestedStack')?.template.Resources.BLambdaFunction);
  assert.equal(result.root.Resources.ALambdaFunction.DependsOn, ['ALogGroup']);
  assert.ok(result.root.Resources.ALogGroup, "and so do the function's other resources");
  assert.equal(result.nested.map(n => n.name), ['BNestedStack']);
});

conditions.run();
