import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { AdminConfirmSignUpCommand, AdminGetUserCommand, CognitoIdentityProviderClient, InitiateAuthCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { runFw } from '../helpers/cli';
import { failure, outputsOf, startTestCloud, type TestCloud } from './helpers';

const ENV = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

/** A service as people write it: the pool and its client in `resources`, the APIs protected by them. */
const SERVICE = `service: members
frameworkVersion: '3'
provider:
  name: aws
  runtime: nodejs20.x
  httpApi:
    authorizers:
      pool:
        type: jwt
        identitySource: $request.header.Authorization
        issuerUrl:
          Fn::Join: ['', ['https://cognito-idp.', { Ref: 'AWS::Region' }, '.amazonaws.com/', { Ref: UserPool }]]
        audience:
          - Ref: UserPoolClient
functions:
  api:
    handler: handler.api
    events:
      - httpApi:
          method: GET
          path: /profile
          authorizer:
            name: pool
      - http:
          method: get
          path: profile
          authorizer:
            name: pool
            type: COGNITO_USER_POOLS
            arn:
              Fn::GetAtt: [UserPool, Arn]
  preSignUp:
    handler: triggers.preSignUp
    events:
      - cognitoUserPool: { pool: triggered, trigger: PreSignUp }
  postConfirmation:
    handler: triggers.postConfirmation
    events:
      - cognitoUserPool: { pool: triggered, trigger: PostConfirmation }
resources:
  Resources:
    TriggeredClient:
      Type: AWS::Cognito::UserPoolClient
      Properties:
        UserPoolId: { Ref: CognitoUserPoolTriggered }
        ExplicitAuthFlows: [ALLOW_USER_PASSWORD_AUTH]
    UserPool:
      Type: AWS::Cognito::UserPool
      Properties:
        UserPoolName: members-dev
        UsernameAttributes: [email]
        AutoVerifiedAttributes: [email]
    UserPoolClient:
      Type: AWS::Cognito::UserPoolClient
      Properties:
        UserPoolId: { Ref: UserPool }
        ExplicitAuthFlows: [ALLOW_USER_PASSWORD_AUTH, ALLOW_REFRESH_TOKEN_AUTH]
  Outputs:
    UserPoolId: { Value: { Ref: UserPool } }
    UserPoolClientId: { Value: { Ref: UserPoolClient } }
    TriggeredPoolId: { Value: { Ref: CognitoUserPoolTriggered } }
    TriggeredClientId: { Value: { Ref: TriggeredClient } }
`;

const TRIGGERS = `
exports.preSignUp = async (event) => {
  console.log('PRESIGNUP ' + JSON.stringify(event));
  if (event.request.userAttributes.email.endsWith('@blocked.example')) throw new Error('this domain may not sign up');
  if (!event.userName.startsWith('manual')) Object.assign(event.response, { autoConfirmUser: true, autoVerifyEmail: true });
  return event;
};
exports.postConfirmation = async (event) => {
  console.log('POSTCONFIRMATION ' + JSON.stringify(event));
  return event;
};`;

interface Context {
  t: TestCloud;
  work: string;
  deploy: { code: number; stdout: string; stderr: string };
  outputs: Record<string, string>;
}

const members = suite<Context>('serverless.yml with a Cognito user pool protecting its APIs, deployed to the local cloud');

members.before(async (context) => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-members-'));
  context.t = await startTestCloud(join(context.work, 'cloud'));
  const dir = join(context.work, 'service');
  mkdirSync(dir);
  writeFileSync(join(dir, 'serverless.yml'), SERVICE);
  writeFileSync(join(dir, 'triggers.js'), TRIGGERS);
  writeFileSync(join(dir, 'handler.js'), `exports.api = async (event) => ({ statusCode: 200, body: JSON.stringify(event.requestContext.authorizer) });`);
  context.deploy = await runFw(['deploy', '--endpoint-url', context.t.cloud.url], dir, ENV);
  const stack = (await context.t.cfn.send(new DescribeStacksCommand({ StackName: 'members-dev' }))).Stacks![0];
  context.outputs = outputsOf(stack);
});

members.after(async (context) => {
  await context.t.stop({ keepData: true });
  rmSync(context.work, { recursive: true, force: true });
});

members('a user signed up with their email reaches both APIs with their token; without one they are refused', async ({ t, deploy, outputs }) => {
  assert.is(deploy.code, 0, deploy.stderr);
  assert.not.match(deploy.stdout, /not enforced/);
  const client = new CognitoIdentityProviderClient({ ...t.config, maxAttempts: 1 });
  try {
    const { UserSub } = await client.send(new SignUpCommand({ ClientId: outputs.UserPoolClientId, Username: 'hana@example.com', Password: 'Secret-Passw0rd!' }));
    await client.send(new AdminConfirmSignUpCommand({ UserPoolId: outputs.UserPoolId, Username: 'hana@example.com' }));
    const { AuthenticationResult } = await client.send(
      new InitiateAuthCommand({ ClientId: outputs.UserPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'hana@example.com', PASSWORD: 'Secret-Passw0rd!' } }),
    );
    const token = AuthenticationResult!.IdToken!;
    const rest = await fetch(`${outputs.ServiceEndpoint}/profile`, { headers: { authorization: token } });
    const restClaims = ((await rest.json()) as { claims: Record<string, string> }).claims;
    // With the email as user name, Cognito's user name is the user's sub.
    assert.equal([rest.status, restClaims.sub, restClaims['cognito:username'], restClaims.email, restClaims.email_verified], [200, UserSub, UserSub, 'hana@example.com', 'true']);
    const http = await fetch(`${outputs.HttpApiUrl}/profile`, { headers: { authorization: `Bearer ${token}` } });
    const httpClaims = ((await http.json()) as { jwt: { claims: Record<string, string> } }).jwt.claims;
    assert.equal([http.status, httpClaims.sub, httpClaims.aud], [200, UserSub, outputs.UserPoolClientId]);
    assert.equal([(await fetch(`${outputs.ServiceEndpoint}/profile`)).status, (await fetch(`${outputs.HttpApiUrl}/profile`)).status], [401, 401]);
  } finally {
    client.destroy();
  }
});

/** The events a trigger logged, oldest first. */
async function triggerEvents(t: TestCloud, fn: string, marker: string): Promise<unknown[]> {
  const logs = new CloudWatchLogsClient({ ...t.config, maxAttempts: 1 });
  try {
    const { events = [] } = await logs.send(new FilterLogEventsCommand({ logGroupName: `/aws/lambda/members-dev-${fn}`, filterPattern: `"${marker}"` }));
    return events.map((event) => JSON.parse(new RegExp(`${marker} (.*)$`).exec((event.message ?? '').trim())![1]) as unknown);
  } finally {
    logs.destroy();
  }
}

members('cognitoUserPool triggers run: PreSignUp decides (auto-confirm, or refuse with its error), PostConfirmation follows a confirmation', async ({ t, outputs }) => {
  const client = new CognitoIdentityProviderClient({ ...t.config, maxAttempts: 1 });
  const poolId = outputs.TriggeredPoolId;
  const clientId = outputs.TriggeredClientId;
  const signUp = (username: string, email: string) => client.send(new SignUpCommand({ ClientId: clientId, Username: username, Password: 'Secret-Passw0rd!', UserAttributes: [{ Name: 'email', Value: email }] }));
  try {
    const auto = await signUp('ines', 'ines@example.com');
    assert.equal([auto.UserConfirmed, auto.CodeDeliveryDetails], [true, undefined]);
    const ines = await client.send(new AdminGetUserCommand({ UserPoolId: poolId, Username: 'ines' }));
    assert.equal([ines.UserStatus, ines.UserAttributes!.find((attribute) => attribute.Name === 'email_verified')?.Value], ['CONFIRMED', 'true']);
    const refused = await failure(signUp('jon', 'jon@blocked.example'));
    assert.equal([refused?.name, refused?.message], ['UserLambdaValidationException', 'PreSignUp failed with error this domain may not sign up.']);
    assert.is(await failure(client.send(new AdminGetUserCommand({ UserPoolId: poolId, Username: 'jon' }))).then((error) => error?.name), 'UserNotFoundException');
    const manual = await signUp('manual-kim', 'kim@example.com');
    assert.is(manual.UserConfirmed, false);
    await client.send(new AdminConfirmSignUpCommand({ UserPoolId: poolId, Username: 'manual-kim' }));
    const caller = { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId };
    const preSignUp = (userName: string, email: string) => ({
      version: '1', region: 'us-east-1', userPoolId: poolId, userName, callerContext: caller, triggerSource: 'PreSignUp_SignUp',
      request: { userAttributes: { email }, validationData: {} },
      response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
    });
    assert.equal(await triggerEvents(t, 'preSignUp', 'PRESIGNUP'), [preSignUp('ines', 'ines@example.com'), preSignUp('jon', 'jon@blocked.example'), preSignUp('manual-kim', 'kim@example.com')]);
    assert.equal(await triggerEvents(t, 'postConfirmation', 'POSTCONFIRMATION'), [
      {
        version: '1', region: 'us-east-1', userPoolId: poolId, userName: 'manual-kim', callerContext: { ...caller, clientId: 'CLIENT_ID_NOT_APPLICABLE' }, triggerSource: 'PostConfirmation_ConfirmSignUp',
        request: { userAttributes: { sub: manual.UserSub, email: 'kim@example.com', 'cognito:user_status': 'CONFIRMED' } },
        response: {},
      },
    ]);
  } finally {
    client.destroy();
  }
});

members.run();
