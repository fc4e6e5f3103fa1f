import { createHmac, createSign } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { PutObjectCommand, CreateBucketCommand } from '@aws-sdk/client-s3';
import {
  AdminAddUserToGroupCommand,
  AdminConfirmSignUpCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminInitiateAuthCommand,
  AdminListGroupsForUserCommand,
  AdminSetUserPasswordCommand,
  ChangePasswordCommand,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DeleteUserPoolCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  ForgotPasswordCommand,
  GetUserCommand,
  InitiateAuthCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  ListUsersCommand,
  RespondToAuthChallengeCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { signedLocalFetch } from '../../src/local/access/sign';
import { ANY_LOCAL_CREDENTIALS } from '../../src/local/access/credentials';
import { credentials, failure, outputsOf, settle, startTestCloud, zip, type TestCloud } from './helpers';

interface Context {
  t: TestCloud;
  lines: string[];
  /** Signed with the test's credentials, as an administrator's script is. */
  admin: CognitoIdentityProviderClient;
  /** Without credentials, as a browser or mobile app calls sign-up and sign-in. */
  anonymous: CognitoIdentityProviderClient;
  outputs: Record<string, string>;
}

const CODE = { S3Bucket: 'deploys', S3Key: 'cognito/code.zip' };
const HANDLER = `exports.handler = async (event) => ({ statusCode: 200, body: JSON.stringify(event.requestContext.authorizer ?? null) });`;
const PASSWORD = 'Secret-Passw0rd';

const restMethod = (resource: string, extra: Record<string, unknown>) => ({
  Type: 'AWS::ApiGateway::Method',
  Properties: {
    HttpMethod: 'GET', ResourceId: { Ref: resource }, RestApiId: { Ref: 'RestApi' }, AuthorizationType: 'COGNITO_USER_POOLS', AuthorizerId: { Ref: 'PoolAuthorizer' },
    Integration: { IntegrationHttpMethod: 'POST', Type: 'AWS_PROXY', Uri: { 'Fn::Sub': 'arn:aws:apigateway:${AWS::Region}:lambda:path/2015-03-31/functions/${ApiFunction.Arn}/invocations' } },
    ...extra,
  },
});
const restResource = (pathPart: string) => ({ Type: 'AWS::ApiGateway::Resource', Properties: { ParentId: { 'Fn::GetAtt': ['RestApi', 'RootResourceId'] }, PathPart: pathPart, RestApiId: { Ref: 'RestApi' } } });

const TEMPLATE = {
  AWSTemplateFormatVersion: '2010-09-09',
  Resources: {
    UserPool: {
      Type: 'AWS::Cognito::UserPool',
      Properties: {
        UserPoolName: 'shop-dev',
        AutoVerifiedAttributes: ['email'],
        Policies: { PasswordPolicy: { MinimumLength: 10, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: false } },
      },
    },
    WebClient: {
      Type: 'AWS::Cognito::UserPoolClient',
      Properties: { UserPoolId: { Ref: 'UserPool' }, ClientName: 'web', ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_ADMIN_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'] },
    },
    ServerClient: {
      Type: 'AWS::Cognito::UserPoolClient',
      Properties: { UserPoolId: { Ref: 'UserPool' }, ClientName: 'server', GenerateSecret: true, ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'] },
    },
    Admins: { Type: 'AWS::Cognito::UserPoolGroup', Properties: { UserPoolId: { Ref: 'UserPool' }, GroupName: 'admins', Precedence: 1 } },
    Staff: { Type: 'AWS::Cognito::UserPoolGroup', Properties: { UserPoolId: { Ref: 'UserPool' }, GroupName: 'staff', Precedence: 5 } },
    Domain: { Type: 'AWS::Cognito::UserPoolDomain', Properties: { UserPoolId: { Ref: 'UserPool' }, Domain: 'shop-dev-auth' } },
    ApiFunction: {
      Type: 'AWS::Lambda::Function',
      Properties: { Code: CODE, Handler: 'api.handler', Runtime: 'nodejs20.x', FunctionName: 'shop-dev-api', Role: 'arn:aws:iam::000000000000:role/x' },
    },
    HttpApi: { Type: 'AWS::ApiGatewayV2::Api', Properties: { Name: 'shop-dev', ProtocolType: 'HTTP' } },
    HttpApiStage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { ApiId: { Ref: 'HttpApi' }, StageName: '$default', AutoDeploy: true } },
    HttpApiIntegration: {
      Type: 'AWS::ApiGatewayV2::Integration',
      Properties: { ApiId: { Ref: 'HttpApi' }, IntegrationType: 'AWS_PROXY', IntegrationUri: { 'Fn::GetAtt': ['ApiFunction', 'Arn'] }, PayloadFormatVersion: '2.0' },
    },
    PoolJwtAuthorizer: {
      Type: 'AWS::ApiGatewayV2::Authorizer',
      Properties: {
        ApiId: { Ref: 'HttpApi' }, Name: 'pool', AuthorizerType: 'JWT', IdentitySource: ['$request.header.Authorization'],
        JwtConfiguration: { Issuer: { 'Fn::Sub': 'https://cognito-idp.${AWS::Region}.amazonaws.com/${UserPool}' }, Audience: [{ Ref: 'WebClient' }] },
      },
    },
    HttpRouteMe: {
      Type: 'AWS::ApiGatewayV2::Route',
      Properties: { ApiId: { Ref: 'HttpApi' }, RouteKey: 'GET /me', AuthorizationType: 'JWT', AuthorizerId: { Ref: 'PoolJwtAuthorizer' }, Target: { 'Fn::Sub': 'integrations/${HttpApiIntegration}' } },
    },
    RestApi: { Type: 'AWS::ApiGateway::RestApi', Properties: { Name: 'shop-dev' } },
    RestResourceMe: restResource('me'),
    RestResourceScoped: restResource('scoped'),
    PoolAuthorizer: {
      Type: 'AWS::ApiGateway::Authorizer',
      Properties: { RestApiId: { Ref: 'RestApi' }, Name: 'pool', Type: 'COGNITO_USER_POOLS', IdentitySource: 'method.request.header.Authorization', ProviderARNs: [{ 'Fn::GetAtt': ['UserPool', 'Arn'] }] },
    },
    RestMethodMe: restMethod('RestResourceMe', {}),
    RestMethodScoped: restMethod('RestResourceScoped', { AuthorizationScopes: ['aws.cognito.signin.user.admin'] }),
    RestDeployment: { Type: 'AWS::ApiGateway::Deployment', Properties: { RestApiId: { Ref: 'RestApi' }, StageName: 'dev' }, DependsOn: ['RestMethodMe', 'RestMethodScoped'] },
  },
  Outputs: {
    PoolId: { Value: { Ref: 'UserPool' } },
    PoolArn: { Value: { 'Fn::GetAtt': ['UserPool', 'Arn'] } },
    ProviderName: { Value: { 'Fn::GetAtt': ['UserPool', 'ProviderName'] } },
    ProviderURL: { Value: { 'Fn::GetAtt': ['UserPool', 'ProviderURL'] } },
    WebClientId: { Value: { Ref: 'WebClient' } },
    ServerClientId: { Value: { Ref: 'ServerClient' } },
    ServerClientSecret: { Value: { 'Fn::GetAtt': ['ServerClient', 'ClientSecret'] } },
    AdminsGroup: { Value: { Ref: 'Admins' } },
    HttpApiUrl: { Value: { 'Fn::Sub': 'https://${HttpApi}.execute-api.${AWS::Region}.amazonaws.com' } },
    ServiceEndpoint: { Value: { 'Fn::Sub': 'https://${RestApi}.execute-api.${AWS::Region}.amazonaws.com/dev' } },
  },
};

/** A client with no credentials: the SDK sends sign-up and sign-in unsigned, as it does in a browser, and cannot sign anything else. */
function anonymousClient(t: TestCloud): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ endpoint: t.config.endpoint, region: 'us-east-1', maxAttempts: 1, credentials: () => Promise.reject(new Error('this client has no credentials')) });
}

const cognito = suite<Context>('local cloud: Cognito user pools');

cognito.before(async (context) => {
  context.lines = [];
  context.t = await startTestCloud(undefined, { log: (line) => context.lines.push(line) });
  context.admin = new CognitoIdentityProviderClient({ ...context.t.config, maxAttempts: 1 });
  // No credentials at all: the SDK sends sign-up and sign-in unsigned, as it does in a browser.
  context.anonymous = anonymousClient(context.t);
  await context.t.s3.send(new CreateBucketCommand({ Bucket: CODE.S3Bucket }));
  await context.t.s3.send(new PutObjectCommand({ Bucket: CODE.S3Bucket, Key: CODE.S3Key, Body: await zip({ 'api.js': HANDLER }) }));
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'shop-dev', TemplateBody: JSON.stringify(TEMPLATE) }));
  const stack = await settle(context.t.cfn, 'shop-dev');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
  context.outputs = outputsOf(stack);
});

cognito.after(async (context) => {
  context.admin.destroy();
  context.anonymous.destroy();
  await context.t.stop();
});

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;

async function call(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null, errorType: response.headers.get('x-amzn-errortype') };
}

/** The code `fw local start` prints where AWS would mail it. */
function codeFor(context: Context, poolId: string, username: string, what = 'confirmation code'): string {
  const line = context.lines.filter((candidate) => candidate.startsWith(`Cognito ${poolId}: ${what} of ${username} is `)).pop();
  assert.ok(line, `no code logged for ${username}: ${context.lines.join('\n')}`);
  return line.split(' ').pop()!;
}

async function errorOf(promise: Promise<unknown>): Promise<[string | undefined, string | undefined]> {
  const error = await failure(promise);
  return [error?.name, error?.message];
}

const javaDate = (seconds: number) => {
  const [weekday, day, month, year, time] = new Date(seconds * 1000).toUTCString().replace(',', '').split(' ');
  return `${weekday} ${month} ${day} ${time} UTC ${year}`;
};

cognito('a stack makes its pool, clients, groups and domain: Ref and GetAtt as CloudFormation gives them', async ({ outputs, admin }) => {
  const poolId = outputs.PoolId;
  assert.match(poolId, /^us-east-1_[0-9A-Za-z]{9}$/);
  assert.match(outputs.WebClientId, /^[a-z0-9]{26}$/);
  assert.equal(
    { PoolArn: outputs.PoolArn, ProviderName: outputs.ProviderName, ProviderURL: outputs.ProviderURL, AdminsGroup: outputs.AdminsGroup },
    {
      PoolArn: `arn:aws:cognito-idp:us-east-1:000000000000:userpool/${poolId}`,
      ProviderName: `cognito-idp.us-east-1.amazonaws.com/${poolId}`,
      ProviderURL: `https://cognito-idp.us-east-1.amazonaws.com/${poolId}`,
      AdminsGroup: 'admins',
    },
  );
  const { UserPool } = await admin.send(new DescribeUserPoolCommand({ UserPoolId: poolId }));
  assert.equal(
    { ...UserPool, CreationDate: undefined, LastModifiedDate: undefined },
    {
      Id: poolId,
      Name: 'shop-dev',
      Arn: outputs.PoolArn,
      Policies: { PasswordPolicy: { MinimumLength: 10, RequireUppercase: true, RequireLowercase: true, RequireNumbers: true, RequireSymbols: false, TemporaryPasswordValidityDays: 7 } },
      AutoVerifiedAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: true },
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      LambdaConfig: {},
      MfaConfiguration: 'OFF',
      DeletionProtection: 'INACTIVE',
      Domain: 'shop-dev-auth',
      EstimatedNumberOfUsers: 0,
      CreationDate: undefined,
      LastModifiedDate: undefined,
    },
  );
  assert.instance(UserPool!.CreationDate, Date);
  const clients = await admin.send(new ListUserPoolClientsCommand({ UserPoolId: poolId, MaxResults: 10 }));
  assert.equal(
    clients.UserPoolClients!.map((client) => [client.ClientName, client.ClientId]).sort(),
    [['server', outputs.ServerClientId], ['web', outputs.WebClientId]],
  );
  const { UserPoolClient } = await admin.send(new DescribeUserPoolClientCommand({ UserPoolId: poolId, ClientId: outputs.ServerClientId }));
  assert.equal([UserPoolClient!.ClientSecret, UserPoolClient!.ExplicitAuthFlows, UserPoolClient!.RefreshTokenValidity], [outputs.ServerClientSecret, ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'], 30]);
  assert.match(outputs.ServerClientSecret, /^[a-z0-9]{51}$/);
});

cognito('the pool API: create, list, describe, clients, delete, and AWS errors for what does not exist', async ({ admin }) => {
  const { UserPool } = await admin.send(new CreateUserPoolCommand({ PoolName: 'scratch' }));
  const id = UserPool!.Id!;
  assert.equal(UserPool!.Policies, { PasswordPolicy: { MinimumLength: 8, RequireUppercase: true, RequireLowercase: true, RequireNumbers: true, RequireSymbols: true, TemporaryPasswordValidityDays: 7 } });
  const { UserPoolClient } = await admin.send(new CreateUserPoolClientCommand({ UserPoolId: id, ClientName: 'cli' }));
  assert.equal(UserPoolClient!.ExplicitAuthFlows, ['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_CUSTOM_AUTH', 'ALLOW_USER_SRP_AUTH']);
  assert.is(UserPoolClient!.ClientSecret, undefined);
  const listed = await admin.send(new ListUserPoolsCommand({ MaxResults: 60 }));
  assert.ok(listed.UserPools!.some((pool) => pool.Id === id && pool.Name === 'scratch'));
  await admin.send(new DeleteUserPoolCommand({ UserPoolId: id }));
  assert.equal(await errorOf(admin.send(new DescribeUserPoolCommand({ UserPoolId: id }))), ['ResourceNotFoundException', `User pool ${id} does not exist.`]);
  assert.equal(await errorOf(admin.send(new InitiateAuthCommand({ ClientId: UserPoolClient!.ClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'a', PASSWORD: 'b' } }))), [
    'ResourceNotFoundException',
    `User pool client ${UserPoolClient!.ClientId} does not exist.`,
  ]);
});

cognito('sign up, read the code in the log, confirm, sign in: real RS256 tokens with the claims Cognito puts in them', async (context) => {
  const { outputs, anonymous } = context;
  const poolId = outputs.PoolId;
  const clientId = outputs.WebClientId;
  assert.equal(await errorOf(anonymous.send(new SignUpCommand({ ClientId: clientId, Username: 'alice', Password: 'short' }))), [
    'InvalidPasswordException',
    'Password did not conform with policy: Password not long enough',
  ]);
  assert.equal(await errorOf(anonymous.send(new SignUpCommand({ ClientId: clientId, Username: 'alice', Password: 'alllowercase1' }))), [
    'InvalidPasswordException',
    'Password did not conform with policy: Password must have uppercase characters',
  ]);
  const signedUp = await anonymous.send(new SignUpCommand({ ClientId: clientId, Username: 'alice', Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: 'alice@example.com' }] }));
  assert.equal({ ...signedUp, $metadata: undefined, UserSub: undefined }, {
    $metadata: undefined,
    UserConfirmed: false,
    UserSub: undefined,
    CodeDeliveryDetails: { Destination: 'a***@e***', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
  });
  assert.equal(await errorOf(anonymous.send(new SignUpCommand({ ClientId: clientId, Username: 'alice', Password: PASSWORD }))), ['UsernameExistsException', 'User account already exists']);
  const signIn = () => anonymous.send(new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'alice', PASSWORD } }));
  assert.equal(await errorOf(signIn()), ['UserNotConfirmedException', 'User is not confirmed.']);
  assert.equal(await errorOf(anonymous.send(new ConfirmSignUpCommand({ ClientId: clientId, Username: 'alice', ConfirmationCode: 'nope' }))), [
    'CodeMismatchException',
    'Invalid verification code provided, please try again.',
  ]);
  await anonymous.send(new ConfirmSignUpCommand({ ClientId: clientId, Username: 'alice', ConfirmationCode: codeFor(context, poolId, 'alice') }));
  assert.equal(await errorOf(anonymous.send(new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'alice', PASSWORD: 'Wrong-passw0rd' } }))), [
    'NotAuthorizedException',
    'Incorrect username or password.',
  ]);
  assert.equal(await errorOf(anonymous.send(new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'nobody', PASSWORD } }))), [
    'UserNotFoundException',
    'User does not exist.',
  ]);
  const { AuthenticationResult: result, ChallengeParameters } = await signIn();
  assert.equal([ChallengeParameters, result!.ExpiresIn, result!.TokenType, typeof result!.RefreshToken], [{}, 3600, 'Bearer', 'string']);
  const id = claimsOf(result!.IdToken!);
  const access = claimsOf(result!.AccessToken!);
  const issuer = `${context.t.cloud.url}/${poolId}`;
  assert.equal(id, {
    sub: id.sub,
    iss: issuer,
    email: 'alice@example.com',
    email_verified: true,
    'cognito:username': 'alice',
    origin_jti: access.origin_jti,
    aud: clientId,
    event_id: access.event_id,
    token_use: 'id',
    auth_time: id.iat,
    exp: (id.iat as number) + 3600,
    iat: id.iat,
    jti: id.jti,
  });
  assert.equal(access, {
    sub: id.sub,
    iss: issuer,
    client_id: clientId,
    origin_jti: id.origin_jti,
    event_id: id.event_id,
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    auth_time: id.iat,
    exp: (id.iat as number) + 3600,
    iat: id.iat,
    jti: access.jti,
    username: 'alice',
  });
  const header = JSON.parse(Buffer.from(result!.IdToken!.split('.')[0], 'base64url').toString('utf8')) as Record<string, string>;
  const jwks = (await call(`${issuer}/.well-known/jwks.json`)).body as { keys: Record<string, string>[] };
  assert.equal([header.alg, jwks.keys.map((key) => [key.kid, key.alg, key.kty, key.use])], ['RS256', [[header.kid, 'RS256', 'RSA', 'sig']]]);
  const discovery = (await call(`${issuer}/.well-known/openid-configuration`)).body as Record<string, unknown>;
  assert.equal([discovery.issuer, discovery.jwks_uri], [issuer, `${issuer}/.well-known/jwks.json`]);

  const user = await anonymous.send(new GetUserCommand({ AccessToken: result!.AccessToken }));
  assert.equal([user.Username, user.UserAttributes], ['alice', [{ Name: 'sub', Value: id.sub }, { Name: 'email', Value: 'alice@example.com' }, { Name: 'email_verified', Value: 'true' }]]);
  assert.equal(await errorOf(anonymous.send(new GetUserCommand({ AccessToken: result!.IdToken }))), ['NotAuthorizedException', 'Invalid Access Token']);

  const refreshed = await anonymous.send(new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: result!.RefreshToken! } }));
  assert.equal([refreshed.AuthenticationResult!.RefreshToken, claimsOf(refreshed.AuthenticationResult!.IdToken!)['cognito:username']], [undefined, 'alice']);
  assert.equal(await errorOf(anonymous.send(new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: 'forged' } }))), [
    'NotAuthorizedException',
    'Invalid Refresh Token',
  ]);
});

cognito('a client with a secret needs SECRET_HASH; a flow the client does not allow is refused', async (context) => {
  const { outputs, anonymous, admin } = context;
  const poolId = outputs.PoolId;
  await admin.send(new AdminCreateUserCommand({ UserPoolId: poolId, Username: 'bob', TemporaryPassword: 'Temp-Passw0rd', MessageAction: 'SUPPRESS' }));
  await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username: 'bob', Password: PASSWORD, Permanent: true }));
  const clientId = outputs.ServerClientId;
  const signIn = (parameters: Record<string, string>) => anonymous.send(new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'bob', PASSWORD, ...parameters } }));
  assert.equal(await errorOf(signIn({})), ['NotAuthorizedException', `Client ${clientId} is configured for secret but secret was not received`]);
  assert.equal(await errorOf(signIn({ SECRET_HASH: 'AAAA' })), ['NotAuthorizedException', `Unable to verify secret hash for client ${clientId}`]);
  const secretHash = createHmac('sha256', outputs.ServerClientSecret).update(`bob${clientId}`).digest('base64');
  const { AuthenticationResult } = await signIn({ SECRET_HASH: secretHash });
  assert.is(claimsOf(AuthenticationResult!.IdToken!).aud, clientId);
  assert.equal(await errorOf(admin.send(new AdminInitiateAuthCommand({ UserPoolId: poolId, ClientId: clientId, AuthFlow: 'ADMIN_USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'bob', PASSWORD, SECRET_HASH: secretHash } }))), [
    'InvalidParameterException',
    'ADMIN_USER_PASSWORD_AUTH flow not enabled for this client',
  ]);
});

cognito('admin flows: a temporary password asks for a new one, groups reach the tokens, users are listed, filtered and deleted', async (context) => {
  const { outputs, admin, anonymous } = context;
  const poolId = outputs.PoolId;
  const clientId = outputs.WebClientId;
  const created = await admin.send(new AdminCreateUserCommand({ UserPoolId: poolId, Username: 'carol', TemporaryPassword: 'Temp-Passw0rd', UserAttributes: [{ Name: 'email', Value: 'carol@example.com' }] }));
  assert.equal([created.User!.Username, created.User!.UserStatus, created.User!.Enabled, created.User!.Attributes!.map((attribute) => attribute.Name)], ['carol', 'FORCE_CHANGE_PASSWORD', true, ['sub', 'email']]);
  assert.equal(await errorOf(admin.send(new AdminCreateUserCommand({ UserPoolId: poolId, Username: 'carol' }))), ['UsernameExistsException', 'User account already exists']);
  assert.equal(await errorOf(admin.send(new AdminCreateUserCommand({ UserPoolId: poolId, Username: 'dave', TemporaryPassword: 'weak' }))), [
    'InvalidPasswordException',
    'Password did not conform with policy: Password not long enough',
  ]);
  await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: poolId, Username: 'carol', GroupName: 'staff' }));
  await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: poolId, Username: 'carol', GroupName: 'admins' }));
  assert.equal(await errorOf(admin.send(new AdminAddUserToGroupCommand({ UserPoolId: poolId, Username: 'carol', GroupName: 'nope' }))), ['ResourceNotFoundException', 'Group not found.']);
  const groups = await admin.send(new AdminListGroupsForUserCommand({ UserPoolId: poolId, Username: 'carol' }));
  assert.equal(groups.Groups!.map((group) => [group.GroupName, group.Precedence, group.UserPoolId]), [['staff', 5, poolId], ['admins', 1, poolId]]);

  const challenge = await admin.send(new AdminInitiateAuthCommand({ UserPoolId: poolId, ClientId: clientId, AuthFlow: 'ADMIN_USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'carol', PASSWORD: 'Temp-Passw0rd' } }));
  assert.equal([challenge.ChallengeName, challenge.AuthenticationResult, challenge.ChallengeParameters], [
    'NEW_PASSWORD_REQUIRED',
    undefined,
    { USER_ID_FOR_SRP: 'carol', requiredAttributes: '[]', userAttributes: JSON.stringify({ email: 'carol@example.com' }) },
  ]);
  const respond = (password: string, session = challenge.Session) =>
    anonymous.send(new RespondToAuthChallengeCommand({ ClientId: clientId, ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: session, ChallengeResponses: { USERNAME: 'carol', NEW_PASSWORD: password } }));
  assert.equal(await errorOf(respond('nouppercase1x')), ['InvalidPasswordException', 'Password did not conform with policy: Password must have uppercase characters']);
  assert.equal(await errorOf(respond(PASSWORD, 'not-a-session')), ['NotAuthorizedException', 'Invalid session for the user, session is expired.']);
  const answered = await respond(PASSWORD);
  assert.equal(claimsOf(answered.AuthenticationResult!.IdToken!)['cognito:groups'], ['admins', 'staff']);
  assert.equal(claimsOf(answered.AuthenticationResult!.AccessToken!)['cognito:groups'], ['admins', 'staff']);
  const got = await admin.send(new AdminGetUserCommand({ UserPoolId: poolId, Username: 'carol' }));
  assert.equal([got.Username, got.UserStatus, got.Enabled], ['carol', 'CONFIRMED', true]);

  await admin.send(new AdminCreateUserCommand({ UserPoolId: poolId, Username: 'erin', UserAttributes: [{ Name: 'email', Value: 'erin@example.org' }] }));
  assert.ok(context.lines.some((line) => new RegExp(`^Cognito ${poolId}: temporary password of erin is \\S{12,}$`).test(line)), context.lines.join('\n'));
  const filtered = await admin.send(new ListUsersCommand({ UserPoolId: poolId, Filter: 'email ^= "erin@"' }));
  assert.equal(filtered.Users!.map((user) => [user.Username, user.UserStatus]), [['erin', 'FORCE_CHANGE_PASSWORD']]);
  const confirmed = await admin.send(new ListUsersCommand({ UserPoolId: poolId, Filter: 'cognito:user_status = "CONFIRMED"' }));
  assert.equal(confirmed.Users!.map((user) => user.Username).sort(), ['alice', 'bob', 'carol']);
  assert.equal(await errorOf(admin.send(new ListUsersCommand({ UserPoolId: poolId, Filter: 'email contains "x"' }))), ['InvalidParameterException', 'Error while parsing filter.']);

  await admin.send(new SignUpCommand({ ClientId: clientId, Username: 'frank', Password: PASSWORD }));
  await admin.send(new AdminConfirmSignUpCommand({ UserPoolId: poolId, Username: 'frank' }));
  assert.equal(await errorOf(admin.send(new AdminConfirmSignUpCommand({ UserPoolId: poolId, Username: 'frank' }))), ['NotAuthorizedException', 'User cannot be confirmed. Current status is CONFIRMED']);
  await admin.send(new AdminDeleteUserCommand({ UserPoolId: poolId, Username: 'frank' }));
  assert.equal(await errorOf(admin.send(new AdminGetUserCommand({ UserPoolId: poolId, Username: 'frank' }))), ['UserNotFoundException', 'User does not exist.']);
});

async function signInAs(context: Context, username: string) {
  const { AuthenticationResult } = await context.anonymous.send(
    new InitiateAuthCommand({ ClientId: context.outputs.WebClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: username, PASSWORD } }),
  );
  return { id: AuthenticationResult!.IdToken!, access: AuthenticationResult!.AccessToken! };
}

/** A token of the pool's own shape, re-signed with another key or changed after signing. */
function tampered(token: string, change: (claims: Record<string, unknown>) => void): string {
  const [header, , signature] = token.split('.');
  const claims = claimsOf(token);
  change(claims);
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

cognito('REST Cognito authorizer: the ID token passes its verified claims as API Gateway writes them', async (context) => {
  const tokens = await signInAs(context, 'carol');
  const id = claimsOf(tokens.id);
  const url = `${context.outputs.ServiceEndpoint}/me`;
  const expected = {
    claims: {
      sub: String(id.sub),
      'cognito:groups': 'admins,staff',
      iss: `${context.t.cloud.url}/${context.outputs.PoolId}`,
      email: 'carol@example.com',
      'cognito:username': 'carol',
      origin_jti: String(id.origin_jti),
      aud: context.outputs.WebClientId,
      event_id: String(id.event_id),
      token_use: 'id',
      auth_time: String(id.auth_time),
      exp: javaDate(id.exp as number),
      iat: javaDate(id.iat as number),
      jti: String(id.jti),
    },
  };
  assert.equal(await call(url, { authorization: tokens.id }).then((r) => [r.status, r.body]), [200, expected]);
  assert.equal(await call(url, { authorization: `Bearer ${tokens.id}` }).then((r) => r.status), 200);
  // Without scopes on the method, API Gateway wants the ID token.
  assert.equal(await call(url, { authorization: tokens.access }).then((r) => [r.status, r.body, r.errorType]), [401, { message: 'Unauthorized' }, 'UnauthorizedException']);
  assert.equal(await call(url).then((r) => [r.status, r.body]), [401, { message: 'Unauthorized' }]);
  assert.equal(await call(url, { authorization: tampered(tokens.id, (claims) => (claims['cognito:groups'] = ['root'])) }).then((r) => [r.status, r.body]), [401, { message: 'Unauthorized' }]);
  assert.equal(await call(url, { authorization: 'not-a-jwt' }).then((r) => r.status), 401);
});

cognito('REST Cognito authorizer with scopes takes the access token; expired tokens are refused with API Gateway\'s message', async (context) => {
  const tokens = await signInAs(context, 'alice');
  const url = `${context.outputs.ServiceEndpoint}/scoped`;
  const access = claimsOf(tokens.access);
  const passed = await call(url, { authorization: tokens.access });
  assert.equal([passed.status, (passed.body as { claims: Record<string, string> }).claims.scope, (passed.body as { claims: Record<string, string> }).claims.username], [200, 'aws.cognito.signin.user.admin', 'alice']);
  assert.equal(await call(url, { authorization: tokens.id }).then((r) => r.status), 401);
  // Signed with the pool's key but past its exp: made by the pool's own store, as a token an hour old would be.
  const expired = await expiredToken(context, access);
  assert.equal(await call(url, { authorization: expired }).then((r) => [r.status, r.body, r.errorType]), [401, { message: 'The incoming token has expired' }, 'UnauthorizedException']);
});

/** An access token of the pool, signed with its key (read from the data folder) and expired a minute ago. */
async function expiredToken(context: Context, claims: Record<string, unknown>): Promise<string> {
  const { readFileSync } = await import('node:fs');
  const { createPrivateKey } = await import('node:crypto');
  const state = JSON.parse(readFileSync(`${context.t.dataDir}/state/cognito.json`, 'utf8')) as { pools: Record<string, { signingKey: object }> };
  const key = createPrivateKey({ key: state.pools[context.outputs.PoolId].signingKey as never, format: 'jwk' });
  const kid = (JSON.parse(Buffer.from((await signInAs(context, 'alice')).access.split('.')[0], 'base64url').toString('utf8')) as { kid: string }).kid;
  const now = Math.floor(Date.now() / 1000);
  const input = `${Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid })).toString('base64url')}.${Buffer.from(JSON.stringify({ ...claims, iat: now - 3660, exp: now - 60 })).toString('base64url')}`;
  return `${input}.${createSign('sha256').update(input).sign(key).toString('base64url')}`;
}

cognito('HTTP API JWT authorizer on the pool\'s issuer: tokens of its client pass with their claims, others get 401', async (context) => {
  const tokens = await signInAs(context, 'carol');
  const id = claimsOf(tokens.id);
  const url = `${context.outputs.HttpApiUrl}/me`;
  const passed = await call(url, { authorization: `Bearer ${tokens.id}` });
  assert.equal([passed.status, passed.body], [
    200,
    {
      jwt: {
        claims: {
          sub: String(id.sub),
          'cognito:groups': '[admins staff]',
          iss: `${context.t.cloud.url}/${context.outputs.PoolId}`,
          email: 'carol@example.com',
          'cognito:username': 'carol',
          origin_jti: String(id.origin_jti),
          aud: context.outputs.WebClientId,
          event_id: String(id.event_id),
          token_use: 'id',
          auth_time: String(id.auth_time),
          exp: String(id.exp),
          iat: String(id.iat),
          jti: String(id.jti),
        },
        scopes: null,
      },
    },
  ]);
  const viaAccess = await call(url, { authorization: tokens.access });
  assert.equal([viaAccess.status, (viaAccess.body as { jwt: { scopes: string[] } }).jwt.scopes], [200, ['aws.cognito.signin.user.admin']]);
  assert.equal(await call(url).then((r) => [r.status, r.body]), [401, { message: 'Unauthorized' }]);
  assert.equal(await call(url, { authorization: tampered(tokens.id, (claims) => (claims.email = 'mallory@example.com')) }).then((r) => r.status), 401);
  assert.equal(await call(url, { authorization: await expiredToken(context, claimsOf(tokens.access)) }).then((r) => r.status), 401);
  // The server client's tokens are not for this API's audience.
  const secretHash = createHmac('sha256', context.outputs.ServerClientSecret).update(`bob${context.outputs.ServerClientId}`).digest('base64');
  const other = await context.anonymous.send(new InitiateAuthCommand({ ClientId: context.outputs.ServerClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'bob', PASSWORD, SECRET_HASH: secretHash } }));
  assert.equal(await call(url, { authorization: other.AuthenticationResult!.IdToken! }).then((r) => r.status), 401);
});

cognito('only sign-up, sign-in and token calls go unsigned; admin calls need a signature as on AWS', async (context) => {
  const UNSIGNED = 'The local cloud serves only requests signed with AWS Signature Version 4 (the AWS SDKs and the AWS CLI sign with any credentials; S3 objects can be shared with presigned URLs)';
  const unsigned = (operation: string, body: unknown) =>
    fetch(context.t.cloud.url, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${operation}` }, body: JSON.stringify(body) }).then(async (response) => [response.status, await response.json()]);
  assert.equal(await unsigned('AdminGetUser', { UserPoolId: context.outputs.PoolId, Username: 'alice' }), [
    403,
    { __type: 'MissingAuthenticationTokenException', message: UNSIGNED, Message: UNSIGNED },
  ]);
  assert.equal(await unsigned('InitiateAuth', { ClientId: context.outputs.WebClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'alice', PASSWORD: 'Wrong-passw0rd' } }), [
    400,
    { __type: 'NotAuthorizedException', message: 'Incorrect username or password.', Message: 'Incorrect username or password.' },
  ]);
  const report = await signedLocalFetch(`${context.t.cloud.url}/_fw/deploy-report?stack=shop-dev`, {}, ANY_LOCAL_CREDENTIALS);
  assert.equal(((await report.json()) as { notEnforced: string[] }).notEnforced, ['Domain: hosted UI and OAuth endpoints not emulated (the domain is set on its pool)']);
});

cognito('with --require-credentials, sign-up and sign-in still go unsigned and administrator calls must be signed with the secret', async () => {
  const strict = await startTestCloud(undefined, { credentials });
  const admin = new CognitoIdentityProviderClient({ ...strict.config, maxAttempts: 1 });
  const wrong = new CognitoIdentityProviderClient({ ...strict.config, credentials: { ...credentials, secretAccessKey: 'wrong' }, maxAttempts: 1 });
  const anonymous = anonymousClient(strict);
  try {
    const { UserPool } = await admin.send(new CreateUserPoolCommand({ PoolName: 'strict' }));
    const { UserPoolClient } = await admin.send(new CreateUserPoolClientCommand({ UserPoolId: UserPool!.Id, ClientName: 'app', ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH'] }));
    await anonymous.send(new SignUpCommand({ ClientId: UserPoolClient!.ClientId, Username: 'gina', Password: 'Secret-Passw0rd!' }));
    assert.equal(await errorOf(wrong.send(new AdminConfirmSignUpCommand({ UserPoolId: UserPool!.Id, Username: 'gina' }))), [
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    ]);
    await admin.send(new AdminConfirmSignUpCommand({ UserPoolId: UserPool!.Id, Username: 'gina' }));
    const { AuthenticationResult } = await anonymous.send(new InitiateAuthCommand({ ClientId: UserPoolClient!.ClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'gina', PASSWORD: 'Secret-Passw0rd!' } }));
    assert.is(claimsOf(AuthenticationResult!.IdToken!)['cognito:username'], 'gina');
  } finally {
    admin.destroy();
    wrong.destroy();
    anonymous.destroy();
    await strict.stop();
  }
});

cognito('a pool\'s Lambda triggers that do not run are named in the deploy report, and a PreTokenGeneration asking for the V2_0 event', async (context) => {
  const fn = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`;
  const LambdaConfig = {
    PreSignUp: fn('pre'), CustomMessage: fn('msg'), PreAuthentication: fn('auth'), PostAuthentication: fn('post'), PreTokenGeneration: fn('tokens'),
    PreTokenGenerationConfig: { LambdaArn: fn('tokens'), LambdaVersion: 'V2_0' },
  };
  const pool = { Type: 'AWS::Cognito::UserPool', Properties: { LambdaConfig } };
  await context.t.cfn.send(new CreateStackCommand({ StackName: 'triggers-dev', TemplateBody: JSON.stringify({ Resources: { Pool: pool } }) }));
  assert.is((await settle(context.t.cfn, 'triggers-dev')).StackStatus, 'CREATE_COMPLETE');
  const report = await signedLocalFetch(`${context.t.cloud.url}/_fw/deploy-report?stack=triggers-dev`, {}, ANY_LOCAL_CREDENTIALS);
  assert.equal(((await report.json()) as { notEnforced: string[] }).notEnforced, [
    'Pool: Lambda triggers not run (CustomMessage)',
    'Pool: PreTokenGeneration gets the V1_0 event, not V2_0 (the access token is not customized)',
  ]);
});

cognito('a forgotten password is reset with the code in the log; a signed-in user changes theirs with the access token', async (context) => {
  const { outputs, anonymous } = context;
  const clientId = outputs.WebClientId;
  const forgot = await anonymous.send(new ForgotPasswordCommand({ ClientId: clientId, Username: 'alice' }));
  assert.equal(forgot.CodeDeliveryDetails, { Destination: 'a***@e***', DeliveryMedium: 'EMAIL', AttributeName: 'email' });
  const reset = (code: string, password: string) => anonymous.send(new ConfirmForgotPasswordCommand({ ClientId: clientId, Username: 'alice', ConfirmationCode: code, Password: password }));
  assert.equal(await errorOf(reset('000000x', 'Reset-Passw0rd')), ['CodeMismatchException', 'Invalid verification code provided, please try again.']);
  const code = codeFor(context, outputs.PoolId, 'alice', 'password reset code');
  assert.equal(await errorOf(reset(code, 'weak')), ['InvalidPasswordException', 'Password did not conform with policy: Password not long enough']);
  await reset(code, 'Reset-Passw0rd');
  const { AuthenticationResult } = await anonymous.send(new InitiateAuthCommand({ ClientId: clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'alice', PASSWORD: 'Reset-Passw0rd' } }));
  const change = (previous: string) => anonymous.send(new ChangePasswordCommand({ AccessToken: AuthenticationResult!.AccessToken, PreviousPassword: previous, ProposedPassword: PASSWORD }));
  assert.equal(await errorOf(change(PASSWORD)), ['NotAuthorizedException', 'Incorrect username or password.']);
  await change('Reset-Passw0rd');
  assert.is(claimsOf((await signInAs(context, 'alice')).id)['cognito:username'], 'alice');
});

cognito('pools, users and signing keys survive a restart', async (context) => {
  const before = await signInAs(context, 'alice');
  await context.t.stop({ keepData: true });
  context.admin.destroy();
  context.anonymous.destroy();
  const restarted = await startTestCloud(context.t.dataDir, { log: (line) => context.lines.push(line) });
  context.t = restarted;
  context.admin = new CognitoIdentityProviderClient({ ...restarted.config, maxAttempts: 1 });
  context.anonymous = anonymousClient(restarted);
  const after = await signInAs(context, 'alice');
  const kid = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { kid: string }).kid;
  assert.is(kid(after.id), kid(before.id));
  const user = await context.admin.send(new AdminGetUserCommand({ UserPoolId: context.outputs.PoolId, Username: 'alice' }));
  assert.is(user.UserStatus, 'CONFIRMED');
});

cognito.run();
