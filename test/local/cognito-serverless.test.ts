import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  AdminAddUserToGroupCommand,
  AdminConfirmSignUpCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
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
  preAuthentication:
    handler: triggers.preAuthentication
    events:
      - cognitoUserPool: { pool: signin, trigger: PreAuthentication }
  postAuthentication:
    handler: triggers.postAuthentication
    events:
      - cognitoUserPool: { pool: signin, trigger: PostAuthentication }
  preTokenGeneration:
    handler: triggers.preTokenGeneration
    events:
      - cognitoUserPool: { pool: signin, trigger: PreTokenGeneration }
resources:
  Resources:
    TriggeredClient:
      Type: AWS::Cognito::UserPoolClient
      Properties:
        UserPoolId: { Ref: CognitoUserPoolTriggered }
        ExplicitAuthFlows: [ALLOW_USER_PASSWORD_AUTH]
    SigninClient:
      Type: AWS::Cognito::UserPoolClient
      Properties:
        UserPoolId: { Ref: CognitoUserPoolSignin }
        ExplicitAuthFlows: [ALLOW_USER_PASSWORD_AUTH, ALLOW_REFRESH_TOKEN_AUTH]
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
    SigninPoolId: { Value: { Ref: CognitoUserPoolSignin } }
    SigninClientId: { Value: { Ref: SigninClient } }
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
};
exports.preAuthentication = async (event) => {
  console.log('PREAUTHENTICATION ' + JSON.stringify(event));
  if (event.userName === 'blocked') throw new Error('sign-in refused');
  return event;
};
exports.postAuthentication = async (event) => {
  console.log('POSTAUTHENTICATION ' + JSON.stringify(event));
  return event;
};
exports.preTokenGeneration = async (event) => {
  console.log('PRETOKENGENERATION ' + JSON.stringify(event));
  event.response.claimsOverrideDetails = {
    claimsToAddOrOverride: { plan: 'gold', email: 'other@example.com', family_name: 'Okafor-Adams', 'cognito:username': 'mallory' },
    claimsToSuppress: ['email'],
    groupOverrideDetails: { groupsToOverride: [...event.request.groupConfiguration.groupsToOverride, 'beta'], iamRolesToOverride: [], preferredRole: null },
  };
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

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

members('sign-in triggers run: PreAuthentication before the password (its error refuses), PreTokenGeneration shapes the ID token and the groups, PostAuthentication after', async ({ t, outputs }) => {
  const client = new CognitoIdentityProviderClient({ ...t.config, maxAttempts: 1 });
  const poolId = outputs.SigninPoolId;
  const clientId = outputs.SigninClientId;
  const password = 'Secret-Passw0rd!';
  const signIn = (username: string, secret: string, clientMetadata?: Record<string, string>) =>
    client.send(new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD: secret }, ClientMetadata: clientMetadata }));
  try {
    await client.send(new CreateGroupCommand({ UserPoolId: poolId, GroupName: 'staff' }));
    const subs: Record<string, string> = {};
    for (const Username of ['lena', 'blocked']) {
      const { User } = await client.send(new AdminCreateUserCommand({ UserPoolId: poolId, Username, MessageAction: 'SUPPRESS', UserAttributes: [{ Name: 'email', Value: `${Username}@example.com` }, { Name: 'family_name', Value: 'Okafor' }] }));
      subs[Username] = User!.Attributes!.find((attribute) => attribute.Name === 'sub')!.Value!;
      await client.send(new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username, Password: password, Permanent: true }));
    }
    await client.send(new AdminAddUserToGroupCommand({ UserPoolId: poolId, Username: 'lena', GroupName: 'staff' }));

    const { AuthenticationResult } = await signIn('lena', password, { source: 'web' });
    const { sub, iss, exp, iat, auth_time, jti, origin_jti, event_id, ...claims } = claimsOf(AuthenticationResult!.IdToken!);
    // Suppressing `email` wins over overriding it; `cognito:username` cannot be changed.
    assert.equal(claims, { 'cognito:groups': ['staff', 'beta'], family_name: 'Okafor-Adams', 'cognito:username': 'lena', aud: clientId, token_use: 'id', plan: 'gold' });
    assert.equal(claimsOf(AuthenticationResult!.AccessToken!)['cognito:groups'], ['staff', 'beta']);
    const refreshed = await client.send(new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: AuthenticationResult!.RefreshToken! } }));
    assert.is(claimsOf(refreshed.AuthenticationResult!.IdToken!).plan, 'gold');
    assert.equal(await failure(signIn('lena', 'Wrong-Passw0rd!')).then((error) => [error?.name, error?.message]), ['NotAuthorizedException', 'Incorrect username or password.']);
    assert.equal(await failure(signIn('blocked', password)).then((error) => [error?.name, error?.message]), ['UserLambdaValidationException', 'PreAuthentication failed with error sign-in refused.']);

    const caller = { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId };
    const common = (userName: string, triggerSource: string) => ({ version: '1', region: 'us-east-1', userPoolId: poolId, userName, callerContext: caller, triggerSource });
    const attributes = (name: string) => ({ sub: subs[name], email: `${name}@example.com`, family_name: 'Okafor', 'cognito:user_status': 'CONFIRMED' });
    assert.equal(await triggerEvents(t, 'preAuthentication', 'PREAUTHENTICATION'), [
      { ...common('lena', 'PreAuthentication_Authentication'), request: { userAttributes: attributes('lena'), validationData: { source: 'web' } }, response: {} },
      { ...common('lena', 'PreAuthentication_Authentication'), request: { userAttributes: attributes('lena'), validationData: {} }, response: {} },
      { ...common('blocked', 'PreAuthentication_Authentication'), request: { userAttributes: attributes('blocked'), validationData: {} }, response: {} },
    ]);
    const groupConfiguration = { groupsToOverride: ['staff'], iamRolesToOverride: [], preferredRole: null };
    assert.equal(await triggerEvents(t, 'preTokenGeneration', 'PRETOKENGENERATION'), [
      { ...common('lena', 'TokenGeneration_Authentication'), request: { userAttributes: attributes('lena'), groupConfiguration }, response: { claimsOverrideDetails: null } },
      { ...common('lena', 'TokenGeneration_RefreshTokens'), request: { userAttributes: attributes('lena'), groupConfiguration }, response: { claimsOverrideDetails: null } },
    ]);
    assert.equal(await triggerEvents(t, 'postAuthentication', 'POSTAUTHENTICATION'), [
      { ...common('lena', 'PostAuthentication_Authentication'), request: { userAttributes: attributes('lena'), newDeviceUsed: false }, response: {} },
    ]);
  } finally {
    client.destroy();
  }
});

members.run();
