import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { coerceAsV3Validator } from '../../src/config/v3-coercion';
import { packageService } from '../../src/package/service';
import { GOLDEN_TIME } from '../helpers/golden';

const allow = (rest: Record<string, unknown>) => ({ Effect: 'Allow', ...rest });
const statementsAfter = (statements: unknown[]) => {
  const config = { provider: { name: 'aws', iamRoleStatements: statements } } as Record<string, unknown>;
  coerceAsV3Validator(config);
  return (config.provider as { iamRoleStatements: unknown[] }).iamRoleStatements;
};

const coercion = suite("v3's validator rewrites: what serverless@3.40.0 wrote for each form");

coercion('Action and NotAction: a single action becomes a list, items become text', () => {
  assert.equal(
    statementsAfter([allow({ Action: 's3:GetObject', Resource: '*' }), allow({ NotAction: 's3:PutObject', Resource: '*' }), allow({ Action: 5, Resource: '*' }), allow({ Action: ['s3:A', 's3:B'], Resource: '*' })]),
    [allow({ Action: ['s3:GetObject'], Resource: '*' }), allow({ NotAction: ['s3:PutObject'], Resource: '*' }), allow({ Action: ['5'], Resource: '*' }), allow({ Action: ['s3:A', 's3:B'], Resource: '*' })],
  );
});

coercion('Resource: a one-item list of an ARN or a logical id becomes that string; "*", other text and intrinsics stay in a list', () => {
  const resources = [
    ['arn:aws:s3:::b/*'], 'arn:aws:s3:::a/*', ['*'], '*', ['LogicalId'], 'LogicalId2', ['not valid thing'], 'not valid 2',
    [{ 'Fn::Sub': 'arn:aws:s3:::x' }], { 'Fn::Sub': 'arn:aws:s3:::x' }, [['arn:aws:s3:::nested']], ['arn:aws:s3:::a', '*'], [], 7,
  ];
  assert.equal(
    statementsAfter(resources.map(Resource => allow({ Action: ['s3:GetObject'], Resource }))).map(s => (s as { Resource: unknown }).Resource),
    [
      'arn:aws:s3:::b/*', 'arn:aws:s3:::a/*', ['*'], '*', 'LogicalId', 'LogicalId2', ['not valid thing'], ['not valid 2'],
      [{ 'Fn::Sub': 'arn:aws:s3:::x' }], { 'Fn::Sub': 'arn:aws:s3:::x' }, ['arn:aws:s3:::nested'], ['arn:aws:s3:::a', '*'], [], '7',
    ],
  );
  assert.equal(statementsAfter([allow({ Action: ['s3:PutObject'], NotResource: ['arn:aws:s3:::b/*'] })]), [allow({ Action: ['s3:PutObject'], NotResource: 'arn:aws:s3:::b/*' })]);
});

coercion('Principal lists, Sid as text, Condition untouched', () => {
  assert.equal(
    statementsAfter([allow({ Sid: 5, Principal: { Service: 'lambda.amazonaws.com', AWS: 'arn:aws:iam::123456789012:root' }, Action: '', Resource: '*', Condition: { StringEquals: { k: ['v'] } } })]),
    [allow({ Sid: '5', Principal: { Service: ['lambda.amazonaws.com'], AWS: ['arn:aws:iam::123456789012:root'] }, Action: [''], Resource: '*', Condition: { StringEquals: { k: ['v'] } } })],
  );
});

coercion('fw does better: an intrinsic is left as written (v3 turns Fn::GetAtt: Queue.Arn into [Queue.Arn], which CloudFormation rejects)', () => {
  assert.equal(statementsAfter([allow({ Action: ['s3:GetObject'], Resource: { 'Fn::GetAtt': 'Queue.Arn' } })]), [allow({ Action: ['s3:GetObject'], Resource: { 'Fn::GetAtt': 'Queue.Arn' } })]);
});

coercion('DependsOn and Condition of resources and extensions, a function\'s dependsOn; keys v3 does not accept are left alone', () => {
  const config = {
    functions: { hello: { handler: 'h.hello', dependsOn: 'SweepResource' } },
    resources: {
      Resources: {
        SweepResource: { Type: 'AWS::SNS::Topic', DependsOn: 'Other', Condition: ['C'] },
        Other: { Type: 'AWS::SNS::Topic', DependsOn: ['SweepX'] },
        'Bad-Key': { Type: 'AWS::SNS::Topic', DependsOn: 'Other' },
      },
      extensions: { HelloLogGroup: { DependsOn: 'Other' } },
    },
  };
  coerceAsV3Validator(config);
  assert.equal(config, {
    functions: { hello: { handler: 'h.hello', dependsOn: ['SweepResource'] } },
    resources: {
      Resources: {
        SweepResource: { Type: 'AWS::SNS::Topic', DependsOn: ['Other'], Condition: 'C' },
        Other: { Type: 'AWS::SNS::Topic', DependsOn: ['SweepX'] },
        'Bad-Key': { Type: 'AWS::SNS::Topic', DependsOn: 'Other' },
      },
      extensions: { HelloLogGroup: { DependsOn: ['Other'] } },
    },
  });
});

coercion('packaging applies it, with configValidationMode off too (v3 coerces in every mode)', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'fw-coercion-'));
  try {
    writeFileSync(join(cwd, 'handler.js'), 'exports.hello = async () => 1;\n');
    writeFileSync(
      join(cwd, 'serverless.yml'),
      [
        'service: coerced',
        'configValidationMode: off',
        'provider:',
        '  name: aws',
        '  runtime: nodejs18.x',
        '  iam:',
        '    role:',
        '      statements:',
        '        - Effect: Allow',
        '          Action: s3:GetObject',
        '          Resource: [arn:aws:s3:::a]',
        'functions:',
        '  hello:',
        '    handler: handler.hello',
        'resources:',
        '  Resources:',
        '    Topic:',
        '      Type: AWS::SNS::Topic',
        '      DependsOn: HelloLogGroup',
        '',
      ].join('\n'),
    );
    const { template } = await packageService({ cwd, options: {}, now: GOLDEN_TIME });
    const role = template.Resources.IamRoleLambdaExecution as { Properties: { Policies: Array<{ PolicyDocument: { Statement: unknown[] } }> } };
    assert.equal(role.Properties.Policies[0].PolicyDocument.Statement.slice(2), [allow({ Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::a' })]);
    assert.equal(template.Resources.Topic, { Type: 'AWS::SNS::Topic', DependsOn: ['HelloLogGroup'] });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

coercion.run();
