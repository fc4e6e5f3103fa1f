import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../../src/errors';
import type { ServiceConfig } from '../../../src/constructs/model';
import { synth } from '../../helpers/synth';
import { makeHandler, statementId, type Apis, type UserPool } from '../../../src/custom-resources/cognito-user-pool/handler';
import { responseUrl } from '../../helpers/response-url';

const cognito = suite('cognitoUserPool event');

const arn = (fn: string) => ({ 'Fn::GetAtt': [`${fn}LambdaFunction`, 'Arn'] });
const KEY = 'arn:aws:kms:eu-west-1:111111111111:key/12345678-9abc-def0-1234-56789abcdef1';
function errorOf(config: Partial<ServiceConfig>): string {
  try {
    synth(config);
  } catch (error) {
    assert.instance(error, ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

cognito('one pool collects the triggers of every function naming it, and each function may be invoked by it', () => {
  const t = synth({
    functions: {
      preSignUp: { handler: 'h.pre', events: [{ cognitoUserPool: { pool: 'MyPool', trigger: 'PreSignUp' } }] },
      message: { handler: 'h.msg', events: [{ cognitoUserPool: { pool: 'MyPool', trigger: 'CustomMessage' } }] },
    },
  });
  assert.equal(t.Resources.CognitoUserPoolMyPool, {
    Type: 'AWS::Cognito::UserPool',
    Properties: { UserPoolName: 'MyPool', LambdaConfig: { PreSignUp: arn('PreSignUp'), CustomMessage: arn('Message') } },
    DependsOn: ['PreSignUpLambdaFunction', 'MessageLambdaFunction'],
  });
  assert.equal(t.Resources.MessageLambdaPermissionCognitoUserPoolMyPoolTriggerSourceCustomMessage, {
    Type: 'AWS::Lambda::Permission',
    Properties: {
      FunctionName: arn('Message'),
      Action: 'lambda:InvokeFunction',
      Principal: 'cognito-idp.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': ['CognitoUserPoolMyPool', 'Arn'] },
    },
  });
});

cognito('pool names are reduced to letters and digits in the logical id', () => {
  const t = synth({ functions: { f: { handler: 'h.f', events: [{ cognitoUserPool: { pool: 'my-pool_x.1', trigger: 'PreSignUp' } }] } } });
  assert.equal((t.Resources.CognitoUserPoolMypoolx1.Properties as Record<string, unknown>).UserPoolName, 'my-pool_x.1');
  assert.ok(t.Resources.FLambdaPermissionCognitoUserPoolMypoolx1TriggerSourcePreSignUp);
});

cognito('custom sender triggers carry the Lambda version and the pool its KMS key', () => {
  const t = synth({
    functions: { sender: { handler: 'h.s', events: [{ cognitoUserPool: { pool: 'P', trigger: 'CustomSMSSender', kmsKeyId: KEY } }] } },
  });
  assert.equal((t.Resources.CognitoUserPoolP.Properties as Record<string, unknown>).LambdaConfig, {
    CustomSMSSender: { LambdaArn: arn('Sender'), LambdaVersion: 'V1_0' },
    KMSKeyID: KEY,
  });
});

cognito('a custom sender without a KMS key, two keys for one pool, or two functions on one trigger are refused', () => {
  assert.is(
    errorOf({ functions: { s: { handler: 'h.s', events: [{ cognitoUserPool: { pool: 'P', trigger: 'CustomEmailSender' } }] } } }),
    `Invalid configuration in 'functions.s.events[0].cognitoUserPool': the CustomEmailSender trigger needs a "kmsKeyId" (pool "P" has none)`,
  );
  assert.match(
    errorOf({
      functions: {
        s: {
          handler: 'h.s',
          events: [
            { cognitoUserPool: { pool: 'P', trigger: 'CustomEmailSender', kmsKeyId: KEY } },
            { cognitoUserPool: { pool: 'P', trigger: 'CustomSMSSender', kmsKeyId: { Ref: 'Other' } } },
          ],
        },
      },
    }),
    `'functions.s.events[1].cognitoUserPool.kmsKeyId': pool "P" already uses another KMS key`,
  );
  assert.is(
    errorOf({
      functions: {
        a: { handler: 'h.a', events: [{ cognitoUserPool: { pool: 'P', trigger: 'PreSignUp' } }] },
        b: { handler: 'h.b', events: [{ cognitoUserPool: { pool: 'P', trigger: 'PreSignUp' } }] },
      },
    }),
    `Invalid configuration in 'functions.b.events[0].cognitoUserPool.trigger': pool "P" already has a PreSignUp trigger (function "a" at 'functions.a.events[0].cognitoUserPool'); a trigger calls one function`,
  );
});

cognito('an unknown trigger is reported with the config path and the allowed values', () => {
  assert.match(
    errorOf({ functions: { f: { handler: 'h.f', events: [{ cognitoUserPool: { pool: 'P', trigger: 'PreSignup' } }] } } }),
    `Invalid configuration in 'functions.f.events[0].cognitoUserPool.trigger': expected one of`,
  );
});

cognito('existing pools are configured by one custom resource per function, chained per pool', () => {
  const t = synth({
    functions: {
      users: {
        handler: 'h.users',
        events: [
          { cognitoUserPool: { pool: 'legacy', trigger: 'CustomMessage', existing: true } },
          { cognitoUserPool: { pool: 'legacy', trigger: 'PreSignUp', existing: true } },
        ],
      },
      forced: { handler: 'h.forced', events: [{ cognitoUserPool: { pool: 'legacy', trigger: 'PostConfirmation', existing: true, forceDeploy: true } }] },
    },
  });
  assert.equal(t.Resources.ForcedCustomCognitoUserPool1, {
    Type: 'Custom::CognitoUserPool',
    Version: 1,
    DependsOn: ['ForcedLambdaFunction', 'CustomDashresourceDashexistingDashcupLambdaFunction', 'UsersCustomCognitoUserPool1'],
    Properties: {
      ServiceToken: { 'Fn::GetAtt': ['CustomDashresourceDashexistingDashcupLambdaFunction', 'Arn'] },
      FunctionName: 'app-dev-forced',
      UserPoolName: 'legacy',
      UserPoolConfigs: [{ Trigger: 'PostConfirmation' }],
      ForceDeploy: 1704067200000,
    },
  });
  assert.equal((t.Resources.UsersCustomCognitoUserPool1.Properties as any).UserPoolConfigs, [{ Trigger: 'CustomMessage' }, { Trigger: 'PreSignUp' }]);
  const statements = (t.Resources.IamRoleCustomResourcesLambdaExecution.Properties as any).Policies[0].PolicyDocument.Statement;
  assert.equal(statements.map((s: { Action: string[] }) => s.Action[0]), [
    'cognito-idp:ListUserPools',
    'lambda:AddPermission',
    'lambda:AddPermission',
    'iam:PassRole',
  ]);
});

cognito('a function attached to two existing pools, or forceDeploy without existing, is refused', () => {
  assert.match(
    errorOf({
      functions: {
        f: {
          handler: 'h.f',
          events: [
            { cognitoUserPool: { pool: 'a', trigger: 'PreSignUp', existing: true } },
            { cognitoUserPool: { pool: 'b', trigger: 'PostConfirmation', existing: true } },
          ],
        },
      },
    }),
    `'functions.f.events[1].cognitoUserPool.pool': a function can be attached to one existing user pool only`,
  );
  assert.match(
    errorOf({ functions: { f: { handler: 'h.f', events: [{ cognitoUserPool: { pool: 'a', trigger: 'PreSignUp', forceDeploy: true } }] } } }),
    `'functions.f.events[0].cognitoUserPool.forceDeploy': only for existing pools`,
  );
});

cognito.run();

const existingPoolHandler = suite('existing user pool custom resource');

function fakeApis(pool: UserPool | undefined) {
  const calls: Array<[string, unknown]> = [];
  const apis: Apis = {
    findUserPool: async name => (calls.push(['findUserPool', name]), pool),
    updateUserPool: async input => void calls.push(['updateUserPool', input]),
    addPermission: async input => void calls.push(['addPermission', input]),
    removePermission: async input => void calls.push(['removePermission', input]),
  };
  return { apis, calls };
}

const context = { invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:app-dev-custom-resource-existing-cup', logStreamName: 'stream' };
const fnArn = 'arn:aws:lambda:us-east-1:123456789012:function:app-dev-users';
const legacyPool: UserPool = {
  Id: 'us-east-1_abc',
  Arn: 'arn:aws:cognito-idp:us-east-1:123456789012:userpool/us-east-1_abc',
  Name: 'legacy',
  LambdaConfig: { PostConfirmation: 'arn:other', PreSignUp: fnArn },
  AutoVerifiedAttributes: ['email'],
  AdminCreateUserConfig: { AllowAdminCreateUserOnly: false, UnusedAccountValidityDays: 7 },
  CreationDate: 'ignored',
};
const poolEvent = (RequestType: 'Create' | 'Update' | 'Delete', ResponseURL: string) => ({
  RequestType,
  ResponseURL,
  StackId: 'stack',
  RequestId: 'request',
  LogicalResourceId: 'UsersCustomCognitoUserPool1',
  ResourceProperties: { FunctionName: 'app-dev-users', UserPoolName: 'legacy', UserPoolConfigs: [{ Trigger: 'CustomMessage' }] },
});

existingPoolHandler('attaching keeps the pool settings and other functions’ triggers, and lets Cognito invoke the function', async () => {
  const answer = await responseUrl();
  const { apis, calls } = fakeApis(legacyPool);
  try {
    await makeHandler(apis)(poolEvent('Create', answer.url), context);
    assert.equal(calls, [
      ['findUserPool', 'legacy'],
      [
        'updateUserPool',
        {
          UserPoolId: 'us-east-1_abc',
          AutoVerifiedAttributes: ['email'],
          AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
          LambdaConfig: { PostConfirmation: 'arn:other', CustomMessage: fnArn },
        },
      ],
      [
        'addPermission',
        {
          FunctionName: 'app-dev-users',
          StatementId: statementId('us-east-1_abc'),
          Action: 'lambda:InvokeFunction',
          Principal: 'cognito-idp.amazonaws.com',
          SourceArn: legacyPool.Arn,
        },
      ],
    ]);
    assert.is(answer.bodies[0].Status, 'SUCCESS');
    assert.is(answer.bodies[0].PhysicalResourceId, 'app-dev-users-legacy');
  } finally {
    answer.close();
  }
});

existingPoolHandler('deleting removes only this function’s triggers and its permission', async () => {
  const answer = await responseUrl();
  const { apis, calls } = fakeApis(legacyPool);
  try {
    await makeHandler(apis)(poolEvent('Delete', answer.url), context);
    assert.equal((calls[1][1] as any).LambdaConfig, { PostConfirmation: 'arn:other' });
    assert.equal(calls[2], ['removePermission', { FunctionName: 'app-dev-users', StatementId: statementId('us-east-1_abc') }]);
    assert.is(answer.bodies[0].Status, 'SUCCESS');
  } finally {
    answer.close();
  }
});

existingPoolHandler('a missing pool fails the deployment with its name instead of leaving CloudFormation waiting', async () => {
  const answer = await responseUrl();
  const { apis } = fakeApis(undefined);
  const quiet = console.error;
  console.error = () => undefined;
  try {
    await makeHandler(apis)(poolEvent('Create', answer.url), context);
    assert.is(answer.bodies[0].Status, 'FAILED');
    assert.is(answer.bodies[0].Reason, 'No user pool named "legacy" in this account and region (log stream stream)');
  } finally {
    console.error = quiet;
    answer.close();
  }
});

existingPoolHandler.run();
