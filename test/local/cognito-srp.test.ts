import { createHmac } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminInitiateAuthCommand,
  AdminRespondToAuthChallengeCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  GetUserCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { failure, startTestCloud, type TestCloud } from './helpers';

/**
 * SRP sign-in (USER_SRP_AUTH, then PASSWORD_VERIFIER) as web and mobile apps do it: with Amazon's own
 * client library, amazon-cognito-identity-js, installed from the npm registry into a cache outside the
 * repository (scripts/plugin-cache.js's packageCache), pointed at the local cloud with `endpoint`; and
 * with SDK v3 for the administrator's calls and a client with a secret, which that library does not
 * make, the SRP numbers computed by the library's AuthenticationHelper.
 */
const REPO = join(__dirname, '..', '..', '..');
const CLIENT_LIBRARY = 'amazon-cognito-identity-js@6.3.21';
const { packageCache } = require(join(REPO, 'scripts', 'plugin-cache.js')) as {
  packageCache(specs: string[], root: string, options?: { log?: (line: string) => void; name?: string }): { nodeModules: string };
};

// The few shapes of amazon-cognito-identity-js the test uses.
type Callback<T> = (error: Error | null, value: T) => void;
interface Jwt { getJwtToken(): string; payload: Record<string, unknown> }
interface Session { getIdToken(): Jwt; getAccessToken(): Jwt; getRefreshToken(): { getToken(): string } }
interface AuthCallbacks { onSuccess(session: Session): void; onFailure(error: Error & { code?: string }): void; newPasswordRequired?(attributes: Record<string, string>, required: string[]): void }
interface LibraryUser { authenticateUser(details: unknown, callbacks: AuthCallbacks): void; completeNewPasswordChallenge(password: string, attributes: Record<string, string>, callbacks: AuthCallbacks): void }
interface BigNumber { toString(radix: number): string }
interface Helper { getLargeAValue(callback: Callback<BigNumber>): void; getPasswordAuthenticationKey(username: string, password: string, B: BigNumber, salt: BigNumber, callback: Callback<Buffer>): void }
interface IdentityJs {
  CognitoUserPool: new (data: { UserPoolId: string; ClientId: string; endpoint: string }) => unknown;
  CognitoUser: new (data: { Username: string; Pool: unknown }) => LibraryUser;
  AuthenticationDetails: new (data: { Username: string; Password: string }) => unknown;
  AuthenticationHelper: new (poolName: string) => Helper;
  DateHelper: new () => { getNowString(): string };
  BigInteger: new (hex: string, radix: number) => BigNumber;
}

interface Context {
  lib: IdentityJs;
  t: TestCloud;
  lines: string[];
  admin: CognitoIdentityProviderClient;
  anonymous: CognitoIdentityProviderClient;
  poolId: string;
  web: string;
  server: { id: string; secret: string };
  passwordOnly: string;
  hidden: string;
}

const PASSWORD = 'Secret-Passw0rd';
const INCORRECT = { name: 'NotAuthorizedException', message: 'Incorrect username or password.' };

type Outcome = { tokens: Session } | { failure: { code?: string; message: string } } | { newPassword: { user: LibraryUser; attributes: Record<string, string> } };

/** `CognitoUser.authenticateUser` (USER_SRP_AUTH, the library's default flow) against the local pool. */
function signIn(context: Context, clientId: string, username: string, password: string, poolId = context.poolId): Promise<Outcome> {
  const { CognitoUserPool, CognitoUser, AuthenticationDetails } = context.lib;
  const pool = new CognitoUserPool({ UserPoolId: poolId, ClientId: clientId, endpoint: context.t.config.endpoint });
  const user = new CognitoUser({ Username: username, Pool: pool });
  return new Promise((resolve) =>
    user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), {
      onSuccess: (session) => resolve({ tokens: session }),
      onFailure: (error) => resolve({ failure: { code: error.code, message: error.message } }),
      newPasswordRequired: (attributes) => resolve({ newPassword: { user, attributes } }),
    }),
  );
}

const errorOf = (error: Error | undefined) => error && { name: error.name, message: error.message };
const secretHash = (secret: string, username: string, clientId: string) => createHmac('sha256', secret).update(`${username}${clientId}`).digest('base64');

/** The PASSWORD_VERIFIER answer to a challenge, computed by the library's helper (the `A` it made is the helper's). */
async function claim(context: Context, helper: Helper, parameters: Record<string, string>, password: string, timestamp = new context.lib.DateHelper().getNowString()) {
  const { BigInteger } = context.lib;
  const username = parameters.USER_ID_FOR_SRP;
  const key = await new Promise<Buffer>((resolve, reject) =>
    helper.getPasswordAuthenticationKey(username, password, new BigInteger(parameters.SRP_B, 16), new BigInteger(parameters.SALT, 16), (error, value) => (error ? reject(error) : resolve(value))),
  );
  const signature = createHmac('sha256', key)
    .update(context.poolId.split('_')[1])
    .update(username)
    .update(Buffer.from(parameters.SECRET_BLOCK, 'base64'))
    .update(timestamp)
    .digest('base64');
  return { USERNAME: username, PASSWORD_CLAIM_SECRET_BLOCK: parameters.SECRET_BLOCK, TIMESTAMP: timestamp, PASSWORD_CLAIM_SIGNATURE: signature };
}

async function largeA(context: Context): Promise<{ helper: Helper; A: string }> {
  const helper = new context.lib.AuthenticationHelper(context.poolId.split('_')[1]);
  const A = await new Promise<BigNumber>((resolve, reject) => helper.getLargeAValue((error, value) => (error ? reject(error) : resolve(value))));
  return { helper, A: A.toString(16) };
}

const srp = suite<Context>('local cloud: Cognito SRP sign-in (USER_SRP_AUTH) with amazon-cognito-identity-js');

srp.before(async (context) => {
  const { nodeModules } = packageCache([CLIENT_LIBRARY], process.env.FW_TEST_CLIENTS_DIR || join(homedir(), '.cache', 'fw-test-clients'), {
    log: (line) => console.log(line),
    name: 'fw-test-clients',
  });
  const library = join(nodeModules, 'amazon-cognito-identity-js');
  context.lib = { ...require(library), BigInteger: require(join(library, 'lib', 'BigInteger')).default } as IdentityJs;
  context.lines = [];
  context.t = await startTestCloud(undefined, { log: (line) => context.lines.push(line) });
  context.admin = new CognitoIdentityProviderClient({ ...context.t.config, maxAttempts: 1 });
  context.anonymous = new CognitoIdentityProviderClient({ endpoint: context.t.config.endpoint, region: 'us-east-1', maxAttempts: 1, credentials: () => Promise.reject(new Error('this client has no credentials')) });
  const { UserPool } = await context.admin.send(new CreateUserPoolCommand({ PoolName: 'shop-dev' }));
  context.poolId = UserPool!.Id!;
  const client = async (ClientName: string, settings: Record<string, unknown> = {}) =>
    (await context.admin.send(new CreateUserPoolClientCommand({ UserPoolId: context.poolId, ClientName, ...settings }))).UserPoolClient!;
  context.web = (await client('web')).ClientId!;
  const server = await client('server', { GenerateSecret: true, ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'] });
  context.server = { id: server.ClientId!, secret: server.ClientSecret! };
  context.passwordOnly = (await client('password-only', { ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'] })).ClientId!;
  context.hidden = (await client('hidden', { PreventUserExistenceErrors: 'ENABLED' })).ClientId!;
  for (const Username of ['alice', 'dave']) {
    await context.admin.send(new AdminCreateUserCommand({ UserPoolId: context.poolId, Username, MessageAction: 'SUPPRESS', UserAttributes: [{ Name: 'email', Value: `${Username}@example.com` }] }));
    await context.admin.send(new AdminSetUserPasswordCommand({ UserPoolId: context.poolId, Username, Password: PASSWORD, Permanent: true }));
  }
  await context.admin.send(new AdminCreateUserCommand({ UserPoolId: context.poolId, Username: 'bob', TemporaryPassword: 'Temporary-Passw0rd', MessageAction: 'SUPPRESS' }));
});

srp.after(async (context) => {
  context.admin?.destroy();
  context.anonymous?.destroy();
  await context.t?.stop();
});

srp('the right password: the library gets the pool\'s tokens, and GetUser takes the access token', async (context) => {
  const outcome = await signIn(context, context.web, 'alice', PASSWORD);
  assert.ok('tokens' in outcome, JSON.stringify(outcome));
  const session = (outcome as { tokens: Session }).tokens;
  const { sub, iss, exp, iat, auth_time, jti, origin_jti, event_id, ...claims } = session.getIdToken().payload;
  assert.equal(claims, { email: 'alice@example.com', 'cognito:username': 'alice', aud: context.web, token_use: 'id' });
  assert.is(iss, `${context.t.config.endpoint}/${context.poolId}`);
  assert.is(Number(exp) - Number(iat), 3600);
  assert.ok([sub, auth_time, jti, origin_jti, event_id].every((value) => value !== undefined));
  assert.is(session.getAccessToken().payload.username, 'alice');
  assert.ok(session.getRefreshToken().getToken().length > 0);
  const user = await context.anonymous.send(new GetUserCommand({ AccessToken: session.getAccessToken().getJwtToken() }));
  assert.is(user.Username, 'alice');
});

srp('a wrong password: NotAuthorizedException "Incorrect username or password."', async (context) => {
  assert.equal(await signIn(context, context.web, 'alice', 'Wrong-Passw0rd'), { failure: { code: 'NotAuthorizedException', message: 'Incorrect username or password.' } });
});

srp('an unknown user: UserNotFoundException at InitiateAuth; with PreventUserExistenceErrors the challenge comes and no answer passes', async (context) => {
  assert.equal(await signIn(context, context.web, 'nobody', PASSWORD), { failure: { code: 'UserNotFoundException', message: 'User does not exist.' } });
  assert.equal(await signIn(context, context.hidden, 'nobody', PASSWORD), { failure: { code: 'NotAuthorizedException', message: 'Incorrect username or password.' } });
  assert.equal(await signIn(context, context.hidden, 'alice', 'Wrong-Passw0rd'), { failure: { code: 'NotAuthorizedException', message: 'Incorrect username or password.' } });
  assert.ok('tokens' in (await signIn(context, context.hidden, 'alice', PASSWORD)));
});

srp('a temporary password: NEW_PASSWORD_REQUIRED after the proof, then completeNewPasswordChallenge signs in and the new password is the one SRP checks', async (context) => {
  const outcome = await signIn(context, context.web, 'bob', 'Temporary-Passw0rd');
  assert.ok('newPassword' in outcome, JSON.stringify(outcome));
  const { user, attributes } = (outcome as { newPassword: { user: LibraryUser; attributes: Record<string, string> } }).newPassword;
  assert.equal(attributes, {});
  const completed = await new Promise<Outcome>((resolve) =>
    user.completeNewPasswordChallenge('Chosen-Passw0rd', {}, {
      onSuccess: (session) => resolve({ tokens: session }),
      onFailure: (error) => resolve({ failure: { code: error.code, message: error.message } }),
    }),
  );
  assert.ok('tokens' in completed, JSON.stringify(completed));
  assert.is((completed as { tokens: Session }).tokens.getIdToken().payload['cognito:username'], 'bob');
  assert.equal(await signIn(context, context.web, 'bob', 'Temporary-Passw0rd'), { failure: { code: 'NotAuthorizedException', message: 'Incorrect username or password.' } });
  assert.ok('tokens' in (await signIn(context, context.web, 'bob', 'Chosen-Passw0rd')));
});

srp('a pool that signs in with email: the library signs in with the email, proving the password for the user\'s sub (USER_ID_FOR_SRP)', async (context) => {
  const { UserPool } = await context.admin.send(new CreateUserPoolCommand({ PoolName: 'by-email', UsernameAttributes: ['email'] }));
  const poolId = UserPool!.Id!;
  const { UserPoolClient } = await context.admin.send(new CreateUserPoolClientCommand({ UserPoolId: poolId, ClientName: 'web' }));
  const { User } = await context.admin.send(new AdminCreateUserCommand({ UserPoolId: poolId, Username: 'carol@example.com', MessageAction: 'SUPPRESS' }));
  await context.admin.send(new AdminSetUserPasswordCommand({ UserPoolId: poolId, Username: 'carol@example.com', Password: PASSWORD, Permanent: true }));
  const sub = User!.Attributes!.find((attribute) => attribute.Name === 'sub')!.Value!;
  const { ChallengeParameters } = await context.anonymous.send(new InitiateAuthCommand({ ClientId: UserPoolClient!.ClientId!, AuthFlow: 'USER_SRP_AUTH', AuthParameters: { USERNAME: 'carol@example.com', SRP_A: (await largeA(context)).A } }));
  assert.equal([ChallengeParameters!.USER_ID_FOR_SRP, ChallengeParameters!.USERNAME], [sub, sub]);
  const outcome = await signIn(context, UserPoolClient!.ClientId!, 'carol@example.com', PASSWORD, poolId);
  assert.ok('tokens' in outcome, JSON.stringify(outcome));
  assert.equal((outcome as { tokens: Session }).tokens.getIdToken().payload['cognito:username'], sub);
  assert.equal(await signIn(context, UserPoolClient!.ClientId!, 'carol@example.com', 'Wrong-Passw0rd', poolId), { failure: { code: 'NotAuthorizedException', message: 'Incorrect username or password.' } });
});

srp('AdminInitiateAuth and AdminRespondToAuthChallenge with a client secret: the PASSWORD_VERIFIER challenge, SECRET_HASH on both calls, tokens once; the secret block answers once', async (context) => {
  const { id, secret } = context.server;
  const { helper, A } = await largeA(context);
  const started = await context.admin.send(new AdminInitiateAuthCommand({ UserPoolId: context.poolId, ClientId: id, AuthFlow: 'USER_SRP_AUTH', AuthParameters: { USERNAME: 'alice', SRP_A: A, SECRET_HASH: secretHash(secret, 'alice', id) } }));
  assert.is(started.ChallengeName, 'PASSWORD_VERIFIER');
  assert.is(started.Session, undefined);
  const parameters = started.ChallengeParameters!;
  assert.equal(Object.keys(parameters).sort(), ['SALT', 'SECRET_BLOCK', 'SRP_B', 'USERNAME', 'USER_ID_FOR_SRP']);
  assert.equal([parameters.USERNAME, parameters.USER_ID_FOR_SRP], ['alice', 'alice']);
  assert.match(parameters.SRP_B, /^[0-9a-f]{700,}$/);
  const responses = await claim(context, helper, parameters, PASSWORD);
  const respond = (extra: Record<string, string>) =>
    context.admin.send(new AdminRespondToAuthChallengeCommand({ UserPoolId: context.poolId, ClientId: id, ChallengeName: 'PASSWORD_VERIFIER', ChallengeResponses: { ...responses, ...extra } }));
  assert.equal(errorOf(await failure(respond({}))), { name: 'NotAuthorizedException', message: `Client ${id} is configured for secret but secret was not received` });
  const answered = await respond({ SECRET_HASH: secretHash(secret, 'alice', id) });
  assert.equal(Object.keys(answered.AuthenticationResult!).sort(), ['AccessToken', 'ExpiresIn', 'IdToken', 'RefreshToken', 'TokenType']);
  assert.equal(errorOf(await failure(respond({ SECRET_HASH: secretHash(secret, 'alice', id) }))), INCORRECT);
  const withoutHash = await failure(context.admin.send(new AdminInitiateAuthCommand({ UserPoolId: context.poolId, ClientId: id, AuthFlow: 'USER_SRP_AUTH', AuthParameters: { USERNAME: 'alice', SRP_A: A } })));
  assert.equal(errorOf(withoutHash), { name: 'NotAuthorizedException', message: `Client ${id} is configured for secret but secret was not received` });
});

srp('TIMESTAMP: a zero-padded day or a weekday not the date\'s fails as a wrong password; one that is no date is InvalidParameterException', async (context) => {
  const answer = async (timestamp: string) => {
    const { helper, A } = await largeA(context);
    const { ChallengeParameters } = await context.anonymous.send(new InitiateAuthCommand({ ClientId: context.web, AuthFlow: 'USER_SRP_AUTH', AuthParameters: { USERNAME: 'alice', SRP_A: A } }));
    const responses = await claim(context, helper, ChallengeParameters!, PASSWORD, timestamp);
    return context.anonymous.send(new RespondToAuthChallengeCommand({ ClientId: context.web, ChallengeName: 'PASSWORD_VERIFIER', ChallengeResponses: responses }));
  };
  assert.equal(errorOf(await failure(answer('Fri Nov 06 09:05:07 UTC 2026'))), INCORRECT);
  assert.equal(errorOf(await failure(answer('Mon Nov 6 09:05:07 UTC 2026'))), INCORRECT);
  assert.equal(errorOf(await failure(answer('2026-11-06T09:05:07Z'))), { name: 'InvalidParameterException', message: 'TIMESTAMP format should be EEE MMM d HH:mm:ss z yyyy in english.' });
  assert.ok((await answer(new context.lib.DateHelper().getNowString())).AuthenticationResult?.IdToken);
});

srp('the flow off for the client, SRP_A missing or zero: refused before any challenge', async (context) => {
  const start = (ClientId: string, AuthParameters: Record<string, string>) => failure(context.anonymous.send(new InitiateAuthCommand({ ClientId, AuthFlow: 'USER_SRP_AUTH', AuthParameters })));
  assert.equal(errorOf(await start(context.passwordOnly, { USERNAME: 'alice', SRP_A: 'ab' })), { name: 'InvalidParameterException', message: 'USER_SRP_AUTH flow not enabled for this client' });
  assert.equal(errorOf(await start(context.web, { USERNAME: 'alice' })), { name: 'InvalidParameterException', message: 'Missing required parameter SRP_A' });
  assert.equal(errorOf(await start(context.web, { USERNAME: 'alice', SRP_A: '0' })), { name: 'InvalidParameterException', message: 'SRP_A is not a valid SRP public value' });
});

srp('a disabled user proves the password and is refused: "User is disabled."', async (context) => {
  await context.admin.send(new AdminDisableUserCommand({ UserPoolId: context.poolId, Username: 'dave' }));
  assert.equal(await signIn(context, context.web, 'dave', PASSWORD), { failure: { code: 'NotAuthorizedException', message: 'User is disabled.' } });
  assert.equal(await signIn(context, context.web, 'dave', 'Wrong-Passw0rd'), { failure: { code: 'NotAuthorizedException', message: 'Incorrect username or password.' } });
});

srp.run();
