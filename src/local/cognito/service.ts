import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import { jsonResponse, type LocalResponse } from '../http';
import type { CloudIdentity, Diagnostics, FunctionInvoker, Stores } from '../service-interfaces';
import { srpSignatureMatches, srpStart, srpTimestampProblem, srpVerifier, type SrpExchange, type SrpVerifier } from './srp';
import { API_SCOPE, groupConfiguration, issueTokens, poolIdOfToken, poolIssuer, verifyPoolToken, type ClaimsOverride } from './tokens';
import {
  applyClientSettings,
  applyPoolSettings,
  checkPassword,
  groupNotFound,
  invalidParameter,
  now,
  passwordMatches,
  publicJwk,
  srpPoolName,
  temporaryPassword,
  usernameExists,
  userNotFound,
  type PoolGroup,
  type PoolUser,
  type UserPool,
  type UserPoolClient,
} from './user-pools';

const JSON_11 = 'application/x-amz-json-1.1';


type Services = CloudIdentity & Diagnostics & Pick<Stores, 'cognito'> & { readonly functions: FunctionInvoker };
type Input = Record<string, unknown>;

const notAuthorized = (message: string) => new AwsError('NotAuthorizedException', message);
const INCORRECT = 'Incorrect username or password.';
const SESSION_SECONDS = 3 * 60;

const attributeList = (attributes: Record<string, string>) => Object.entries(attributes).map(([Name, Value]) => ({ Name, Value }));

function attributesOf(value: unknown, what: string): Record<string, string> {
  if (value === undefined) return {};
  if (!Array.isArray(value)) throw invalidParameter(`${what}: expected a list of {Name, Value}`);
  const attributes: Record<string, string> = {};
  for (const item of value as { Name?: unknown; Value?: unknown }[]) {
    if (typeof item?.Name !== 'string') throw invalidParameter(`${what}: every attribute needs a Name`);
    if (item.Name === 'sub') throw invalidParameter('Cannot modify the non-mutable attribute sub');
    attributes[item.Name] = item.Value === undefined ? '' : String(item.Value);
  }
  return attributes;
}

/** A user's attributes as the sign-in triggers get them: with `sub` and `cognito:user_status`. */
const triggerAttributes = (user: PoolUser) => ({ ...user.attributes, 'cognito:user_status': user.UserStatus });
/** `clientMetadata` in a trigger's request, when the call had some. */
const metadata = (clientMetadata: unknown) => (clientMetadata !== undefined && clientMetadata !== null ? { clientMetadata } : {});

const userRecord = (user: PoolUser) => ({
  Username: user.Username,
  Attributes: attributeList(user.attributes),
  UserCreateDate: user.UserCreateDate,
  UserLastModifiedDate: user.UserLastModifiedDate,
  Enabled: user.Enabled,
  UserStatus: user.UserStatus,
});

const groupRecord = (pool: UserPool, group: PoolGroup) => ({ GroupName: group.GroupName, UserPoolId: pool.Id, Description: group.Description, Precedence: group.Precedence, RoleArn: group.RoleArn, LastModifiedDate: group.LastModifiedDate, CreationDate: group.CreationDate });

function describePool(pool: UserPool): Record<string, unknown> {
  const { Schema, ...settings } = pool.settings;
  return {
    ...settings,
    SchemaAttributes: Schema,
    Id: pool.Id,
    Name: pool.Name,
    Arn: pool.Arn,
    Policies: { PasswordPolicy: pool.PasswordPolicy },
    UsernameAttributes: pool.UsernameAttributes,
    AliasAttributes: pool.AliasAttributes,
    AutoVerifiedAttributes: pool.AutoVerifiedAttributes,
    UsernameConfiguration: { CaseSensitive: pool.CaseSensitive },
    AdminCreateUserConfig: { ...(pool.settings.AdminCreateUserConfig as object | undefined), AllowAdminCreateUserOnly: pool.AllowAdminCreateUserOnly },
    LambdaConfig: pool.settings.LambdaConfig ?? {},
    MfaConfiguration: pool.settings.MfaConfiguration ?? 'OFF',
    DeletionProtection: pool.settings.DeletionProtection ?? 'INACTIVE',
    Domain: pool.Domain,
    EstimatedNumberOfUsers: Object.keys(pool.users).length,
    CreationDate: pool.CreationDate,
    LastModifiedDate: pool.LastModifiedDate,
  };
}

function describeClient(client: UserPoolClient): Record<string, unknown> {
  return {
    ...client.settings,
    UserPoolId: client.UserPoolId,
    ClientName: client.ClientName,
    ClientId: client.ClientId,
    ClientSecret: client.ClientSecret,
    ExplicitAuthFlows: client.ExplicitAuthFlows,
    PreventUserExistenceErrors: client.PreventUserExistenceErrors,
    RefreshTokenValidity: client.settings.RefreshTokenValidity ?? 30,
    EnableTokenRevocation: client.settings.EnableTokenRevocation ?? true,
    AuthSessionValidity: client.settings.AuthSessionValidity ?? 3,
    CreationDate: client.CreationDate,
    LastModifiedDate: client.LastModifiedDate,
  };
}

/** `Filter` of ListUsers: `attribute = "value"` or `attribute ^= "prefix"`, on the attributes Cognito allows. */
function userFilter(filter: unknown): (user: PoolUser) => boolean {
  if (filter === undefined || filter === '') return () => true;
  const match = /^\s*([\w:]+)\s*(\^?=)\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(String(filter));
  if (!match) throw invalidParameter('Error while parsing filter.');
  const [, name, operator, quoted] = match;
  const wanted = quoted.replace(/\\(.)/g, '$1');
  const allowed = ['username', 'email', 'phone_number', 'name', 'given_name', 'family_name', 'preferred_username', 'cognito:user_status', 'status', 'sub'];
  if (!allowed.includes(name)) throw invalidParameter('Invalid search attribute');
  const valueOf = (user: PoolUser) =>
    name === 'username' ? user.Username
    : name === 'cognito:user_status' ? user.UserStatus
    : name === 'status' ? (user.Enabled ? 'Enabled' : 'Disabled')
    : user.attributes[name];
  return (user) => {
    const value = valueOf(user);
    if (value === undefined) return false;
    return operator === '=' ? value === wanted : value.startsWith(wanted);
  };
}

/** Where a code was "sent", masked as Cognito shows it (`a***@e***`). */
function deliveryDetails(pool: UserPool, user: PoolUser): Record<string, string> | undefined {
  const verified = pool.AutoVerifiedAttributes ?? [];
  const attribute = verified.includes('email') && user.attributes.email ? 'email' : verified.includes('phone_number') && user.attributes.phone_number ? 'phone_number' : undefined;
  if (!attribute) return undefined;
  const value = user.attributes[attribute];
  const Destination = attribute === 'email' ? value.replace(/^(.)[^@]*@(.).*$/, '$1***@$2***') : `+*******${value.slice(-4)}`;
  return { Destination, DeliveryMedium: attribute === 'email' ? 'EMAIL' : 'SMS', AttributeName: attribute };
}

/** Amazon Cognito user pools (JSON 1.1, `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>`). */
export class CognitoApi {
  /** Challenge sessions (NEW_PASSWORD_REQUIRED), short-lived as Cognito's are; not kept over a restart. */
  private readonly sessions = new Map<string, { poolId: string; clientId?: string; username: string; expiresAt: number }>();
  /**
   * PASSWORD_VERIFIER challenges (USER_SRP_AUTH), by the SECRET_BLOCK that names them, which the client
   * sends back: the server's half of the exchange, for one answer within the session's minutes.
   */
  private readonly srpChallenges = new Map<string, { poolId: string; clientId: string; username: string; verifier: SrpVerifier; exchange: SrpExchange; expiresAt: number }>();

  constructor(private readonly cloud: Services) {}

  private get store() {
    return this.cloud.cognito;
  }

  async handle(operation: string, input: Input, region: string): Promise<LocalResponse> {
    const result = await this.result(operation, input, region);
    if (result === undefined) throw new AwsError('UnknownOperationException', `not emulated: Cognito user pools ${operation}`);
    return jsonResponse(result, 200, JSON_11);
  }

  private result(operation: string, input: Input, region: string): Record<string, unknown> | Promise<Record<string, unknown>> | undefined {
    const store = this.store;
    switch (operation) {
      case 'CreateUserPool': {
        if (typeof input.PoolName !== 'string' || input.PoolName === '') throw invalidParameter("1 validation error detected: Value null at 'poolName' failed to satisfy constraint: Member must not be null");
        const pool = store.create({ Name: input.PoolName, settings: input }, region, this.cloud.accountId);
        return { UserPool: describePool(pool) };
      }
      case 'DescribeUserPool':
        return { UserPool: describePool(store.get(input.UserPoolId)) };
      case 'UpdateUserPool': {
        const pool = store.get(input.UserPoolId);
        applyPoolSettings(pool, input);
        store.save();
        return {};
      }
      case 'ListUserPools': {
        const max = Number(input.MaxResults);
        if (!Number.isInteger(max) || max < 1 || max > 60) throw invalidParameter("1 validation error detected: Value at 'maxResults' failed to satisfy constraint: Member must have value between 1 and 60");
        return this.page(store.list().map((pool) => ({ Id: pool.Id, Name: pool.Name, LambdaConfig: pool.settings.LambdaConfig ?? {}, LastModifiedDate: pool.LastModifiedDate, CreationDate: pool.CreationDate })), max, input.NextToken, 'UserPools', 'NextToken');
      }
      case 'DeleteUserPool': {
        const pool = store.get(input.UserPoolId);
        store.delete(pool.Id);
        return {};
      }
      case 'CreateUserPoolClient': {
        const pool = store.get(input.UserPoolId);
        if (typeof input.ClientName !== 'string' || input.ClientName === '') throw invalidParameter("1 validation error detected: Value null at 'clientName' failed to satisfy constraint: Member must not be null");
        const client = store.addClient(pool, { ClientName: input.ClientName, GenerateSecret: input.GenerateSecret === true, settings: input });
        return { UserPoolClient: describeClient(client) };
      }
      case 'DescribeUserPoolClient':
        return { UserPoolClient: describeClient(this.poolClient(input)) };
      case 'UpdateUserPoolClient': {
        const client = this.poolClient(input);
        if (typeof input.ClientName === 'string') client.ClientName = input.ClientName;
        applyClientSettings(client, input);
        store.save();
        return { UserPoolClient: describeClient(client) };
      }
      case 'ListUserPoolClients': {
        const pool = store.get(input.UserPoolId);
        const clients = Object.values(pool.clients).map((client) => ({ ClientId: client.ClientId, UserPoolId: pool.Id, ClientName: client.ClientName }));
        return this.page(clients, Number(input.MaxResults ?? 60), input.NextToken, 'UserPoolClients', 'NextToken');
      }
      case 'DeleteUserPoolClient': {
        const client = this.poolClient(input);
        delete store.get(input.UserPoolId).clients[client.ClientId];
        store.save();
        return {};
      }
      case 'AdminCreateUser':
        return this.adminCreateUser(input);
      case 'AdminGetUser': {
        const { Attributes, ...user } = userRecord(store.user(store.get(input.UserPoolId), input.Username));
        return { ...user, UserAttributes: Attributes };
      }
      case 'AdminDeleteUser': {
        const pool = store.get(input.UserPoolId);
        const user = store.user(pool, input.Username);
        delete pool.users[user.Username];
        store.revokeRefreshTokens(pool.Id, user.Username);
        return {};
      }
      case 'AdminSetUserPassword': {
        const pool = store.get(input.UserPoolId);
        const user = store.user(pool, input.Username);
        const password = checkPassword(input.Password, pool.PasswordPolicy);
        store.setPassword(pool, user, password, input.Permanent === true ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD');
        return {};
      }
      case 'AdminUpdateUserAttributes': {
        const pool = store.get(input.UserPoolId);
        const user = store.user(pool, input.Username);
        Object.assign(user.attributes, attributesOf(input.UserAttributes, 'UserAttributes'));
        user.UserLastModifiedDate = now();
        store.save();
        return {};
      }
      case 'AdminDisableUser':
      case 'AdminEnableUser': {
        const pool = store.get(input.UserPoolId);
        const user = store.user(pool, input.Username);
        user.Enabled = operation === 'AdminEnableUser';
        user.UserLastModifiedDate = now();
        store.save();
        return {};
      }
      case 'ListUsers': {
        const pool = store.get(input.UserPoolId);
        const keep = userFilter(input.Filter);
        const wanted = Array.isArray(input.AttributesToGet) ? (input.AttributesToGet as string[]) : undefined;
        const users = Object.values(pool.users)
          .filter(keep)
          .map((user) => {
            const record = userRecord(user);
            return wanted ? { ...record, Attributes: record.Attributes.filter((attribute) => wanted.includes(attribute.Name)) } : record;
          });
        return this.page(users, Number(input.Limit ?? 60), input.PaginationToken, 'Users', 'PaginationToken');
      }
      case 'SignUp':
        return this.signUp(input);
      case 'ConfirmSignUp': {
        const { pool, client } = store.client(input.ClientId);
        this.checkSecretHash(client, input.Username, input.SecretHash);
        const user = store.user(pool, input.Username);
        if (user.UserStatus !== 'UNCONFIRMED') throw notAuthorized(`User cannot be confirmed. Current status is ${user.UserStatus}`);
        if (typeof input.ConfirmationCode !== 'string' || input.ConfirmationCode !== user.confirmationCode) throw new AwsError('CodeMismatchException', 'Invalid verification code provided, please try again.');
        return this.confirm(pool, user, client.ClientId).then(() => ({}));
      }
      case 'AdminConfirmSignUp': {
        const pool = store.get(input.UserPoolId);
        const user = store.user(pool, input.Username);
        if (user.UserStatus !== 'UNCONFIRMED') throw notAuthorized(`User cannot be confirmed. Current status is ${user.UserStatus}`);
        return this.confirm(pool, user, undefined).then(() => ({}));
      }
      case 'ResendConfirmationCode': {
        const { pool, client } = store.client(input.ClientId);
        this.checkSecretHash(client, input.Username, input.SecretHash);
        const user = store.user(pool, input.Username);
        if (user.UserStatus !== 'UNCONFIRMED') throw invalidParameter('User is already confirmed.');
        this.sendCode(pool, user);
        return { CodeDeliveryDetails: deliveryDetails(pool, user) };
      }
      case 'InitiateAuth':
        return this.initiateAuth(input, false);
      case 'AdminInitiateAuth':
        return this.initiateAuth(input, true);
      case 'RespondToAuthChallenge':
      case 'AdminRespondToAuthChallenge':
        return this.respondToChallenge(input, operation === 'AdminRespondToAuthChallenge');
      case 'GetUser': {
        const { user } = this.tokenUser(input.AccessToken);
        return { Username: user.Username, UserAttributes: attributeList(user.attributes) };
      }
      case 'ForgotPassword': {
        const { pool, client } = store.client(input.ClientId);
        this.checkSecretHash(client, input.Username, input.SecretHash);
        const user = store.findUser(pool, input.Username);
        if (!user) {
          if (client.PreventUserExistenceErrors === 'ENABLED') return { CodeDeliveryDetails: { Destination: '', DeliveryMedium: 'EMAIL', AttributeName: 'email' } };
          throw userNotFound();
        }
        this.sendCode(pool, user, 'password reset code');
        return { CodeDeliveryDetails: deliveryDetails(pool, user) ?? { DeliveryMedium: 'EMAIL', AttributeName: 'email', Destination: '' } };
      }
      case 'ConfirmForgotPassword': {
        const { pool, client } = store.client(input.ClientId);
        this.checkSecretHash(client, input.Username, input.SecretHash);
        const user = store.user(pool, input.Username);
        if (typeof input.ConfirmationCode !== 'string' || input.ConfirmationCode !== user.resetCode) throw new AwsError('CodeMismatchException', 'Invalid verification code provided, please try again.');
        const password = checkPassword(input.Password, pool.PasswordPolicy);
        delete user.resetCode;
        store.setPassword(pool, user, password, 'CONFIRMED');
        return {};
      }
      case 'ChangePassword': {
        const { pool, user } = this.tokenUser(input.AccessToken);
        if (typeof input.PreviousPassword !== 'string' || !passwordMatches(user, input.PreviousPassword)) throw notAuthorized(INCORRECT);
        store.setPassword(pool, user, checkPassword(input.ProposedPassword, pool.PasswordPolicy), user.UserStatus);
        return {};
      }
      case 'GlobalSignOut': {
        const { pool, user } = this.tokenUser(input.AccessToken);
        this.store.revokeRefreshTokens(pool.Id, user.Username);
        return {};
      }
      case 'AdminUserGlobalSignOut': {
        const pool = store.get(input.UserPoolId);
        store.revokeRefreshTokens(pool.Id, store.user(pool, input.Username).Username);
        return {};
      }
      case 'CreateGroup': {
        const pool = store.get(input.UserPoolId);
        if (typeof input.GroupName !== 'string' || input.GroupName === '') throw invalidParameter("1 validation error detected: Value null at 'groupName' failed to satisfy constraint: Member must not be null");
        const group = store.addGroup(pool, { GroupName: input.GroupName, Description: input.Description as string | undefined, Precedence: input.Precedence as number | undefined, RoleArn: input.RoleArn as string | undefined });
        return { Group: groupRecord(pool, group) };
      }
      case 'GetGroup': {
        const pool = store.get(input.UserPoolId);
        return { Group: groupRecord(pool, this.group(pool, input.GroupName)) };
      }
      case 'ListGroups': {
        const pool = store.get(input.UserPoolId);
        return this.page(Object.values(pool.groups).map((group) => groupRecord(pool, group)), Number(input.Limit ?? 60), input.NextToken, 'Groups', 'NextToken');
      }
      case 'DeleteGroup': {
        const pool = store.get(input.UserPoolId);
        const group = this.group(pool, input.GroupName);
        delete pool.groups[group.GroupName];
        for (const user of Object.values(pool.users)) user.groups = user.groups.filter((name) => name !== group.GroupName);
        store.save();
        return {};
      }
      case 'AdminAddUserToGroup':
      case 'AdminRemoveUserFromGroup': {
        const pool = store.get(input.UserPoolId);
        const user = store.user(pool, input.Username);
        const group = this.group(pool, input.GroupName);
        user.groups = user.groups.filter((name) => name !== group.GroupName);
        if (operation === 'AdminAddUserToGroup') user.groups.push(group.GroupName);
        store.save();
        return {};
      }
      case 'AdminListGroupsForUser': {
        const pool = store.get(input.UserPoolId);
        const user = store.user(pool, input.Username);
        return this.page(user.groups.map((name) => groupRecord(pool, pool.groups[name])), Number(input.Limit ?? 60), input.NextToken, 'Groups', 'NextToken');
      }
      case 'ListUsersInGroup': {
        const pool = store.get(input.UserPoolId);
        const group = this.group(pool, input.GroupName);
        const users = Object.values(pool.users).filter((user) => user.groups.includes(group.GroupName)).map(userRecord);
        return this.page(users, Number(input.Limit ?? 60), input.NextToken, 'Users', 'NextToken');
      }
      default:
        return undefined;
    }
  }

  /** A page of items and the token of the next (the index it starts at). */
  private page(items: unknown[], limit: number, token: unknown, key: string, tokenKey: string): Record<string, unknown> {
    const start = typeof token === 'string' && /^\d+$/.test(token) ? Number(token) : 0;
    const size = Number.isInteger(limit) && limit > 0 ? limit : 60;
    const next = start + size < items.length ? String(start + size) : undefined;
    return { [key]: items.slice(start, start + size), ...(next ? { [tokenKey]: next } : {}) };
  }

  private poolClient(input: Input): UserPoolClient {
    const pool = this.store.get(input.UserPoolId);
    const id = String(input.ClientId ?? '');
    if (!Object.hasOwn(pool.clients, id)) throw new AwsError('ResourceNotFoundException', `User pool client ${id} does not exist.`);
    return pool.clients[id];
  }

  private group(pool: UserPool, name: unknown): PoolGroup {
    if (typeof name !== 'string' || !Object.hasOwn(pool.groups, name)) throw groupNotFound();
    return pool.groups[name];
  }

  private adminCreateUser(input: Input): Record<string, unknown> {
    const store = this.store;
    const pool = store.get(input.UserPoolId);
    if (typeof input.Username !== 'string' || input.Username === '') throw invalidParameter("1 validation error detected: Value null at 'username' failed to satisfy constraint: Member must not be null");
    const attributes = attributesOf(input.UserAttributes, 'UserAttributes');
    if (input.MessageAction === 'RESEND') {
      const user = store.user(pool, input.Username);
      if (user.UserStatus !== 'FORCE_CHANGE_PASSWORD') throw new AwsError('UnsupportedUserStateException', 'Resend not possible. User is not in FORCE_CHANGE_PASSWORD state.');
      const password = temporaryPassword(pool.PasswordPolicy);
      store.setPassword(pool, user, password, 'FORCE_CHANGE_PASSWORD');
      this.cloud.log(`Cognito ${pool.Id}: temporary password of ${user.Username} is ${password}`);
      return { User: userRecord(user) };
    }
    const given = input.TemporaryPassword === undefined ? undefined : checkPassword(input.TemporaryPassword, pool.PasswordPolicy);
    const password = given ?? temporaryPassword(pool.PasswordPolicy);
    const user = store.addUser(pool, { name: input.Username, attributes, password, status: 'FORCE_CHANGE_PASSWORD' });
    // The invitation AWS would mail: the developer reads the password in `fw local start`'s output.
    if (given === undefined && input.MessageAction !== 'SUPPRESS') this.cloud.log(`Cognito ${pool.Id}: temporary password of ${user.Username} is ${password}`);
    return { User: userRecord(user) };
  }

  private async signUp(input: Input): Promise<Record<string, unknown>> {
    const store = this.store;
    const { pool, client } = store.client(input.ClientId);
    if (pool.AllowAdminCreateUserOnly) throw notAuthorized('SignUp is not permitted for this user pool');
    if (typeof input.Username !== 'string' || input.Username === '') throw invalidParameter("1 validation error detected: Value null at 'username' failed to satisfy constraint: Member must not be null");
    this.checkSecretHash(client, input.Username, input.SecretHash);
    const password = checkPassword(input.Password, pool.PasswordPolicy);
    if (store.findUser(pool, input.Username)) throw usernameExists(pool);
    const attributes = attributesOf(input.UserAttributes, 'UserAttributes');
    const decided = await this.trigger(pool, 'PreSignUp', 'PreSignUp_SignUp', { userName: String(input.Username), clientId: client.ClientId }, {
      request: { userAttributes: attributes, validationData: attributesOf(input.ValidationData, 'ValidationData'), ...metadata(input.ClientMetadata) },
      response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
    });
    const autoConfirm = decided?.autoConfirmUser === true;
    if (decided?.autoVerifyEmail === true && attributes.email !== undefined) attributes.email_verified = 'true';
    if (decided?.autoVerifyPhone === true && attributes.phone_number !== undefined) attributes.phone_number_verified = 'true';
    const user = store.addUser(pool, { name: input.Username, attributes, password, status: autoConfirm ? 'CONFIRMED' : 'UNCONFIRMED' });
    if (autoConfirm) return { UserConfirmed: true, UserSub: user.attributes.sub };
    this.sendCode(pool, user);
    const details = deliveryDetails(pool, user);
    return { UserConfirmed: false, UserSub: user.attributes.sub, ...(details ? { CodeDeliveryDetails: details } : {}) };
  }

  /**
   * Runs the pool's Lambda trigger (`LambdaConfig.<name>`) with Cognito's event and returns the event's
   * `response` as the function gave it back; a failing function fails the call as Cognito does.
   */
  private async trigger(
    pool: UserPool,
    name: 'PreSignUp' | 'PostConfirmation' | 'PreAuthentication' | 'PostAuthentication' | 'PreTokenGeneration',
    triggerSource: string,
    who: { userName: string; clientId?: string },
    parts: { request: Record<string, unknown>; response: Record<string, unknown> },
  ): Promise<Record<string, unknown> | undefined> {
    const lambdaConfig = (pool.settings.LambdaConfig ?? {}) as Record<string, unknown>;
    // PreTokenGenerationConfig.LambdaArn names the same function as PreTokenGeneration (the V1_0 event is sent).
    const arn = lambdaConfig[name] ?? (name === 'PreTokenGeneration' ? (lambdaConfig.PreTokenGenerationConfig as Record<string, unknown> | undefined)?.LambdaArn : undefined);
    if (typeof arn !== 'string') return undefined;
    const event = {
      version: '1',
      region: pool.Id.split('_')[0],
      userPoolId: pool.Id,
      userName: who.userName,
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: who.clientId ?? 'CLIENT_ID_NOT_APPLICABLE' },
      triggerSource,
      ...parts,
    };
    const outcome = await this.cloud.functions.invoke(arn, event);
    let returned: Record<string, unknown> | undefined;
    try {
      returned = JSON.parse(outcome.payload) as Record<string, unknown>;
    } catch {
      returned = undefined;
    }
    if (outcome.functionError) {
      throw new AwsError('UserLambdaValidationException', `${name} failed with error ${String(returned?.errorMessage ?? 'Unhandled')}.`);
    }
    return (returned?.response ?? undefined) as Record<string, unknown> | undefined;
  }

  /** The code AWS would mail or text: the developer reads it in `fw local start`'s output (or confirms with AdminConfirmSignUp). */
  private sendCode(pool: UserPool, user: PoolUser, what: 'confirmation code' | 'password reset code' = 'confirmation code'): void {
    const code = this.store.newCode(user, what === 'confirmation code' ? 'confirmationCode' : 'resetCode');
    this.cloud.log(`Cognito ${pool.Id}: ${what} of ${user.Username} is ${code}`);
  }

  /** Confirms the user, then runs the PostConfirmation trigger (whose failure fails the call, the user staying confirmed, as on AWS). */
  private async confirm(pool: UserPool, user: PoolUser, clientId: string | undefined): Promise<void> {
    user.UserStatus = 'CONFIRMED';
    delete user.confirmationCode;
    for (const attribute of pool.AutoVerifiedAttributes ?? []) if (user.attributes[attribute] !== undefined) user.attributes[`${attribute}_verified`] = 'true';
    user.UserLastModifiedDate = now();
    this.store.save();
    await this.trigger(pool, 'PostConfirmation', 'PostConfirmation_ConfirmSignUp', { userName: user.Username, clientId }, { request: { userAttributes: triggerAttributes(user) }, response: {} });
  }

  /** SECRET_HASH: Base64(HMAC-SHA256(client secret, user name + client id)), required of a client with a secret. */
  private checkSecretHash(client: UserPoolClient, username: unknown, hash: unknown): void {
    if (!client.ClientSecret) return;
    if (typeof hash !== 'string' || hash === '') throw notAuthorized(`Client ${client.ClientId} is configured for secret but secret was not received`);
    const expected = createHmac('sha256', client.ClientSecret).update(`${String(username)}${client.ClientId}`).digest();
    const given = Buffer.from(hash, 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notAuthorized(`Unable to verify secret hash for client ${client.ClientId}`);
  }

  private flowAllowed(client: UserPoolClient, flow: string): boolean {
    const flows = client.ExplicitAuthFlows;
    if (flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') return true;
    // The legacy names (ADMIN_NO_SRP_AUTH, USER_PASSWORD_AUTH, CUSTOM_AUTH_FLOW_ONLY) left SRP on unless custom auth only.
    if (flow === 'USER_SRP_AUTH') return flows.includes('ALLOW_USER_SRP_AUTH') || (!flows.some((name) => name.startsWith('ALLOW_')) && !flows.includes('CUSTOM_AUTH_FLOW_ONLY'));
    if (flow === 'USER_PASSWORD_AUTH') return flows.includes('ALLOW_USER_PASSWORD_AUTH') || flows.includes('USER_PASSWORD_AUTH');
    return flows.includes('ALLOW_ADMIN_USER_PASSWORD_AUTH') || flows.includes('ADMIN_NO_SRP_AUTH');
  }

  private async initiateAuth(input: Input, admin: boolean): Promise<Record<string, unknown>> {
    const store = this.store;
    const { pool, client } = admin ? { pool: store.get(input.UserPoolId), client: this.poolClient(input) } : store.client(input.ClientId);
    const flow = String(input.AuthFlow ?? '');
    const parameters = (input.AuthParameters ?? {}) as Record<string, string>;
    const passwordFlows = admin ? ['ADMIN_USER_PASSWORD_AUTH', 'ADMIN_NO_SRP_AUTH'] : ['USER_PASSWORD_AUTH'];
    if (flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') {
      const grant = store.refreshGrant(parameters.REFRESH_TOKEN);
      if (!grant || grant.clientId !== client.ClientId || grant.poolId !== pool.Id) throw notAuthorized('Invalid Refresh Token');
      const user = pool.users[grant.username];
      if (!user) throw notAuthorized('Invalid Refresh Token');
      if (!user.Enabled) throw notAuthorized('User is disabled.');
      this.checkSecretHash(client, parameters.USERNAME ?? user.Username, parameters.SECRET_HASH);
      const override = await this.preTokenGeneration(pool, client, user, 'TokenGeneration_RefreshTokens', undefined);
      return { ChallengeParameters: {}, AuthenticationResult: issueTokens(store, this.cloud.baseUrl, pool, client, user, override) };
    }
    const srp = flow === 'USER_SRP_AUTH';
    if (!passwordFlows.includes(flow) && !srp) {
      if (['CUSTOM_AUTH', 'USER_AUTH'].includes(flow)) throw new AwsError('UnknownOperationException', `not emulated: Cognito user pools ${flow} (use USER_SRP_AUTH, USER_PASSWORD_AUTH or ADMIN_USER_PASSWORD_AUTH locally)`);
      throw invalidParameter(`1 validation error detected: Value '${flow}' at 'authFlow' failed to satisfy constraint: Member must satisfy enum value set`);
    }
    if (!this.flowAllowed(client, flow)) throw invalidParameter(`${flow === 'ADMIN_NO_SRP_AUTH' ? 'ADMIN_USER_PASSWORD_AUTH' : flow} flow not enabled for this client`);
    if (!parameters.USERNAME) throw invalidParameter('Missing required parameter USERNAME');
    this.checkSecretHash(client, parameters.USERNAME, parameters.SECRET_HASH);
    const user = store.findUser(pool, parameters.USERNAME);
    if (user) await this.preAuthentication(pool, client, user, input.ClientMetadata);
    if (srp) return this.passwordVerifierChallenge(pool, client, user, parameters.USERNAME, parameters.SRP_A);
    if (!user) throw client.PreventUserExistenceErrors === 'ENABLED' ? notAuthorized(INCORRECT) : userNotFound();
    if (!parameters.PASSWORD) throw invalidParameter('Missing required parameter PASSWORD');
    if (!passwordMatches(user, parameters.PASSWORD)) throw notAuthorized(INCORRECT);
    store.rememberSrpVerifier(pool, user, parameters.PASSWORD);
    return this.passwordProven(pool, client, user);
  }

  /**
   * USER_SRP_AUTH's answer: the PASSWORD_VERIFIER challenge with the user's salt, the server's public B and
   * the SECRET_BLOCK the client signs (no Session, as on AWS). An unknown user is UserNotFoundException, or
   * with PreventUserExistenceErrors a challenge no password answers, as Cognito does.
   */
  private passwordVerifierChallenge(pool: UserPool, client: UserPoolClient, user: PoolUser | undefined, name: string, srpA: string | undefined): Record<string, unknown> {
    if (!srpA) throw invalidParameter('Missing required parameter SRP_A');
    if (!user && client.PreventUserExistenceErrors !== 'ENABLED') throw userNotFound();
    if (user && !user.srp) this.cloud.log(`Cognito ${pool.Id}: ${user.Username} was saved before USER_SRP_AUTH was served; sign in once with USER_PASSWORD_AUTH or set the password again`);
    // Without a user (or a verifier), a verifier of a random password: the challenge looks the same, and no answer passes.
    const verifier = user?.srp ?? srpVerifier(srpPoolName(pool), name, randomBytes(32).toString('hex'));
    const exchange = srpStart(verifier, srpA);
    if (!exchange) throw invalidParameter('SRP_A is not a valid SRP public value');
    const secretBlock = randomBytes(128).toString('base64');
    const username = user?.Username ?? name;
    const expiresAt = now() + SESSION_SECONDS;
    for (const [block, challenge] of this.srpChallenges) if (challenge.expiresAt <= now()) this.srpChallenges.delete(block);
    this.srpChallenges.set(secretBlock, { poolId: pool.Id, clientId: client.ClientId, username: user ? username : '', verifier, exchange, expiresAt });
    return {
      ChallengeName: 'PASSWORD_VERIFIER',
      ChallengeParameters: { SALT: verifier.salt, SECRET_BLOCK: secretBlock, SRP_B: exchange.B, USERNAME: username, USER_ID_FOR_SRP: username },
    };
  }

  /**
   * PASSWORD_VERIFIER's answer: PASSWORD_CLAIM_SIGNATURE must be the HMAC the password's key makes of the pool
   * name, USERNAME, PASSWORD_CLAIM_SECRET_BLOCK and TIMESTAMP; anything else is "Incorrect username or password.".
   */
  private passwordVerified(pool: UserPool, client: UserPoolClient, responses: Record<string, string>, clientMetadata: unknown): Promise<Record<string, unknown>> {
    for (const name of ['USERNAME', 'PASSWORD_CLAIM_SECRET_BLOCK', 'PASSWORD_CLAIM_SIGNATURE', 'TIMESTAMP']) {
      if (typeof responses[name] !== 'string' || responses[name] === '') throw invalidParameter(`Missing required parameter ${name}`);
    }
    this.checkSecretHash(client, responses.USERNAME, responses.SECRET_HASH);
    const timestampProblem = srpTimestampProblem(responses.TIMESTAMP);
    if (timestampProblem === 'format') throw invalidParameter('TIMESTAMP format should be EEE MMM d HH:mm:ss z yyyy in english.');
    const challenge = this.srpChallenges.get(responses.PASSWORD_CLAIM_SECRET_BLOCK);
    this.srpChallenges.delete(responses.PASSWORD_CLAIM_SECRET_BLOCK);
    const user = this.store.findUser(pool, responses.USERNAME);
    const proven =
      challenge !== undefined && challenge.expiresAt > now() && challenge.poolId === pool.Id && challenge.clientId === client.ClientId &&
      user !== undefined && user.Username === challenge.username && user.srp?.salt === challenge.verifier.salt && timestampProblem === undefined &&
      srpSignatureMatches(challenge.verifier, challenge.exchange, {
        poolName: srpPoolName(pool),
        username: responses.USERNAME,
        secretBlock: responses.PASSWORD_CLAIM_SECRET_BLOCK,
        timestamp: responses.TIMESTAMP,
        signature: responses.PASSWORD_CLAIM_SIGNATURE,
      });
    if (!proven) throw notAuthorized(INCORRECT);
    return this.passwordProven(pool, client, user, clientMetadata);
  }

  /** After the password is proven: the user's state decides between tokens, a challenge and an error, whichever flow proved it. */
  private async passwordProven(pool: UserPool, client: UserPoolClient, user: PoolUser, clientMetadata?: unknown): Promise<Record<string, unknown>> {
    if (!user.Enabled) throw notAuthorized('User is disabled.');
    if (user.UserStatus === 'UNCONFIRMED') throw new AwsError('UserNotConfirmedException', 'User is not confirmed.');
    if (user.UserStatus === 'RESET_REQUIRED') throw new AwsError('PasswordResetRequiredException', 'Password reset required for the user');
    if (user.UserStatus === 'FORCE_CHANGE_PASSWORD') {
      const session = randomBytes(96).toString('base64url');
      this.sessions.set(session, { poolId: pool.Id, clientId: client.ClientId, username: user.Username, expiresAt: now() + SESSION_SECONDS });
      const { sub: _sub, ...attributes } = user.attributes;
      return {
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: session,
        ChallengeParameters: { USER_ID_FOR_SRP: user.Username, requiredAttributes: '[]', userAttributes: JSON.stringify(attributes) },
      };
    }
    return { ChallengeParameters: {}, AuthenticationResult: await this.signIn(pool, client, user, 'TokenGeneration_Authentication', clientMetadata) };
  }

  /** The tokens of a sign-in, the PreTokenGeneration trigger shaping the ID token first and PostAuthentication run after. */
  private async signIn(pool: UserPool, client: UserPoolClient, user: PoolUser, source: string, clientMetadata: unknown): Promise<Record<string, unknown>> {
    const override = await this.preTokenGeneration(pool, client, user, source, clientMetadata);
    const tokens = issueTokens(this.store, this.cloud.baseUrl, pool, client, user, override);
    await this.trigger(pool, 'PostAuthentication', 'PostAuthentication_Authentication', { userName: user.Username, clientId: client.ClientId }, {
      request: { userAttributes: triggerAttributes(user), newDeviceUsed: false, ...metadata(clientMetadata) },
      response: {},
    });
    const RefreshToken = this.store.issueRefreshToken({ poolId: pool.Id, clientId: client.ClientId, username: user.Username, expiresAt: now() + Math.round(client.refreshTokenMinutes * 60) });
    return { ...tokens, RefreshToken };
  }

  /** PreAuthentication: on a sign-in's first call, before the password is checked; its error refuses the sign-in. */
  private async preAuthentication(pool: UserPool, client: UserPoolClient, user: PoolUser, clientMetadata: unknown): Promise<void> {
    await this.trigger(pool, 'PreAuthentication', 'PreAuthentication_Authentication', { userName: user.Username, clientId: client.ClientId }, {
      request: {
        userAttributes: triggerAttributes(user),
        validationData: (clientMetadata ?? {}) as Record<string, unknown>,
        ...(client.PreventUserExistenceErrors === 'ENABLED' ? { userNotFound: false } : {}),
      },
      response: {},
    });
  }

  /** PreTokenGeneration (V1_0): the ID token's claims to add, override and suppress, and the groups, as the function answers. */
  private async preTokenGeneration(pool: UserPool, client: UserPoolClient, user: PoolUser, source: string, clientMetadata: unknown): Promise<ClaimsOverride> {
    const response = await this.trigger(pool, 'PreTokenGeneration', source, { userName: user.Username, clientId: client.ClientId }, {
      request: { userAttributes: triggerAttributes(user), groupConfiguration: groupConfiguration(pool, user), ...metadata(clientMetadata) },
      response: { claimsOverrideDetails: null },
    });
    const details = response?.claimsOverrideDetails;
    return details !== null && typeof details === 'object' ? (details as ClaimsOverride) : {};
  }

  private respondToChallenge(input: Input, admin: boolean): Promise<Record<string, unknown>> {
    const store = this.store;
    const { pool, client } = admin ? { pool: store.get(input.UserPoolId), client: this.poolClient(input) } : store.client(input.ClientId);
    const responses = (input.ChallengeResponses ?? {}) as Record<string, string>;
    if (input.ChallengeName === 'PASSWORD_VERIFIER') return this.passwordVerified(pool, client, responses, input.ClientMetadata);
    if (input.ChallengeName !== 'NEW_PASSWORD_REQUIRED') {
      throw new AwsError('UnknownOperationException', `not emulated: Cognito user pools challenge ${String(input.ChallengeName)} (PASSWORD_VERIFIER and NEW_PASSWORD_REQUIRED are)`);
    }
    const session = typeof input.Session === 'string' ? this.sessions.get(input.Session) : undefined;
    if (!session || session.expiresAt <= now() || session.poolId !== pool.Id || session.clientId !== client.ClientId) throw notAuthorized('Invalid session for the user, session is expired.');
    const user = store.findUser(pool, responses.USERNAME);
    if (!user || user.Username !== session.username) throw notAuthorized('Invalid session for the user.');
    this.checkSecretHash(client, responses.USERNAME, responses.SECRET_HASH);
    if (!responses.NEW_PASSWORD) throw invalidParameter('Missing required parameter NEW_PASSWORD');
    const password = checkPassword(responses.NEW_PASSWORD, pool.PasswordPolicy);
    for (const [name, value] of Object.entries(responses)) if (name.startsWith('userAttributes.')) user.attributes[name.slice('userAttributes.'.length)] = value;
    store.setPassword(pool, user, password, 'CONFIRMED');
    this.sessions.delete(input.Session as string);
    return this.signIn(pool, client, user, 'TokenGeneration_NewPasswordChallenge', input.ClientMetadata).then((AuthenticationResult) => ({ ChallengeParameters: {}, AuthenticationResult }));
  }

  /** The pool and user an access token names, once its signature, issuer, expiry and use are checked. */
  private tokenUser(token: unknown): { pool: UserPool; user: PoolUser } {
    if (typeof token !== 'string' || token === '') throw invalidParameter("1 validation error detected: Value null at 'accessToken' failed to satisfy constraint: Member must not be null");
    const pool = this.store.find(poolIdOfToken(token) ?? '');
    if (!pool) throw notAuthorized('Invalid Access Token');
    const verified = verifyPoolToken(pool, this.cloud.baseUrl, token, 'access');
    if ('problem' in verified) throw notAuthorized(verified.problem === 'expired' ? 'Access Token has expired' : 'Invalid Access Token');
    if (verified.claims.scope !== undefined && !String(verified.claims.scope).split(' ').includes(API_SCOPE)) throw notAuthorized('Access Token does not have required scopes');
    const user = pool.users[String(verified.claims.username)];
    if (!user) throw userNotFound();
    return { pool, user };
  }
}

/** A local pool's JWKS and OpenID discovery document, at `<issuer>/.well-known/…` (public, as on AWS). */
export function poolWellKnown(cloud: Pick<Services, 'cognito' | 'baseUrl'>, poolId: string, document: string): LocalResponse {
  const pool = cloud.cognito.find(poolId);
  if (!pool) return jsonResponse({ message: `User pool ${poolId} does not exist.` }, 404);
  if (document === 'jwks.json') return jsonResponse({ keys: [publicJwk(pool)] });
  const issuer = poolIssuer(cloud.baseUrl, pool.Id);
  return jsonResponse({
    issuer,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    response_types_supported: ['code', 'token'],
    scopes_supported: ['openid', 'email', 'phone', 'profile'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  });
}
