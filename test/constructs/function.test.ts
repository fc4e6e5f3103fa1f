import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ARTIFACT_DIR, synth, versionId } from '../helpers/synth';

const fn = suite('FunctionConstruct');

fn('names the log group after the deployed function', () => {
  const t = synth({ functions: { 'say-hi': { handler: 'h.main' } } });
  assert.equal(t.Resources.SayDashhiLogGroup, { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: '/aws/lambda/app-dev-say-hi' } });
});

fn('builds the Lambda function from provider defaults and function fields', () => {
  const t = synth({
    provider: { name: 'aws', runtime: 'nodejs20.x', memorySize: 512, environment: { A: '1', B: '2' }, tags: { team: 'x' } },
    functions: { hello: { handler: 'h.main', timeout: 20, environment: { B: 'override' }, description: 'd', reservedConcurrency: 3 } },
  });
  assert.equal(t.Resources.HelloLambdaFunction, {
    Type: 'AWS::Lambda::Function',
    Properties: {
      Code: { S3Bucket: { Ref: 'ServerlessDeploymentBucket' }, S3Key: `${ARTIFACT_DIR}/app.zip` },
      Handler: 'h.main',
      Runtime: 'nodejs20.x',
      FunctionName: 'app-dev-hello',
      MemorySize: 512,
      Timeout: 20,
      Description: 'd',
      Tags: [{ Key: 'team', Value: 'x' }],
      Environment: { Variables: { A: '1', B: 'override' } },
      ReservedConcurrentExecutions: 3,
      Role: { 'Fn::GetAtt': ['IamRoleLambdaExecution', 'Arn'] },
    },
    DependsOn: ['HelloLogGroup'],
  });
});

fn('the version id is stable for the same code and configuration', () => {
  const config = { functions: { hello: { handler: 'h.main' } } };
  assert.is(versionId(synth(config), 'Hello'), versionId(synth(config), 'Hello'));
});

fn('the version id changes exactly when the code or the configuration changes', () => {
  const base = versionId(synth({ functions: { hello: { handler: 'h.main' } } }), 'Hello');
  assert.is.not(versionId(synth({ functions: { hello: { handler: 'h.main' } } }, 'b3RoZXI='), 'Hello'), base);
  assert.is.not(versionId(synth({ functions: { hello: { handler: 'h.main', memorySize: 128 } } }), 'Hello'), base);
  assert.is(versionId(synth({ functions: { hello: { handler: 'h.main' }, other: { handler: 'h.other' } } }), 'Hello'), base);
});

fn('versionFunctions: false leaves out the version and its output', () => {
  const t = synth({ provider: { name: 'aws', versionFunctions: false }, functions: { hello: { handler: 'h.main' } } });
  assert.is(versionId(t, 'Hello'), undefined);
  assert.equal(Object.keys(t.Outputs ?? {}), ['ServerlessDeploymentBucketName']);
});

fn('a role of its own (by logical id) replaces the shared role and is waited for', () => {
  const t = synth({ functions: { hello: { handler: 'h.main', role: 'MyRole' } } });
  assert.equal(t.Resources.HelloLambdaFunction.DependsOn, ['HelloLogGroup', 'MyRole']);
  assert.equal((t.Resources.HelloLambdaFunction.Properties as Record<string, unknown>).Role, { 'Fn::GetAtt': ['MyRole', 'Arn'] });
  assert.is(t.Resources.IamRoleLambdaExecution, undefined);
});

fn('url: true adds a public function URL, its permission and an output', () => {
  const t = synth({ functions: { hello: { handler: 'h.main', url: true } } });
  assert.equal(t.Resources.HelloLambdaFunctionUrl, {
    Type: 'AWS::Lambda::Url',
    Properties: { AuthType: 'NONE', TargetFunctionArn: { 'Fn::GetAtt': ['HelloLambdaFunction', 'Arn'] } },
  });
  assert.equal(t.Resources.HelloLambdaPermissionFnUrl, {
    Type: 'AWS::Lambda::Permission',
    Properties: { FunctionName: { 'Fn::GetAtt': ['HelloLambdaFunction', 'Arn'] }, Action: 'lambda:InvokeFunctionUrl', Principal: '*', FunctionUrlAuthType: 'NONE' },
  });
  assert.equal(t.Outputs!.HelloLambdaFunctionUrl, {
    Description: 'Lambda Function URL',
    Value: { 'Fn::GetAtt': ['HelloLambdaFunctionUrl', 'FunctionUrl'] },
    Export: { Name: 'sls-app-dev-HelloLambdaFunctionUrl' },
  });
});

fn('destinations and retries become an event invoke config with role statements', () => {
  const t = synth({
    functions: {
      hello: { handler: 'h.main', destinations: { onSuccess: 'target', onFailure: 'arn:aws:sqs:us-east-1:1:q' }, maximumRetryAttempts: 0 },
      target: { handler: 'h.target' },
    },
  });
  assert.equal(t.Resources.HelloLambdaEvConf, {
    Type: 'AWS::Lambda::EventInvokeConfig',
    Properties: {
      FunctionName: { Ref: 'HelloLambdaFunction' },
      DestinationConfig: {
        OnSuccess: { Destination: { 'Fn::GetAtt': ['TargetLambdaFunction', 'Arn'] } },
        OnFailure: { Destination: 'arn:aws:sqs:us-east-1:1:q' },
      },
      Qualifier: '$LATEST',
      MaximumRetryAttempts: 0,
    },
  });
  const statements = ((t.Resources.IamRoleLambdaExecution.Properties as any).Policies[0].PolicyDocument.Statement as unknown[]).slice(2);
  assert.equal(statements, [
    { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: { 'Fn::Sub': 'arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:app-dev-target' } },
    { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: 'arn:aws:sqs:us-east-1:1:q' },
  ]);
});

fn('a destination named after a function the service lacks is refused, as v3 refuses it (a Fn::GetAtt of a missing resource would fail the deploy)', () => {
  assert.throws(
    () => synth({ functions: { hello: { handler: 'h.main', destinations: { onSuccess: 'otherFunctionInService' } } } }),
    (error: Error) =>
      error.message === `Invalid configuration in 'functions.hello.destinations.onSuccess': no function named "otherFunctionInService" in this service (a function elsewhere is given by its ARN)`,
  );
});

fn.run();
