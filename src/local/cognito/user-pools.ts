import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, randomInt, randomUUID, scryptSync, timingSafeEqual, type JsonWebKey, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import { readJson, writeJsonAtomic } from '../state/files';
import { srpVerifier, type SrpVerifier } from './srp';

export interface PasswordPolicy {
  MinimumLength: number;
  RequireUppercase: boolean;
  RequireLowercase: boolean;
  RequireNumbers: boolean;
  RequireSymbols: boolean;
  TemporaryPasswordValidityDays: number;
}

export interface UserPoolClient {
  ClientId: string;
  ClientName: string;
  UserPoolId: string;
  ClientSecret?: string;
  ExplicitAuthFlows: string[];
  /** Minutes, whatever unit the client was given them in. */
  accessTokenMinutes: number;
  idTokenMinutes: number;
  refreshTokenMinutes: number;
  settings: Record<string, unknown>;
  PreventUserExistenceErrors: 'ENABLED' | 'LEGACY';
  CreationDate: number;
  LastModifiedDate: number;
}

export interface PoolUser {
  Username: string;
  /** Name → value; `sub` included. */
  attributes: Record<string, string>;
  UserStatus: 'UNCONFIRMED' | 'CONFIRMED' | 'FORCE_CHANGE_PASSWORD' | 'RESET_REQUIRED';
  Enabled: boolean;
  UserCreateDate: number;
  UserLastModifiedDate: number;
  /** scrypt: `salt:hash`, hex. */
  password?: string;
  /** SRP's salt and verifier of the same password, what USER_SRP_AUTH checks (absent from users saved before SRP was served, until they next sign in with their password). */
  srp?: SrpVerifier;
  /** The code ConfirmSignUp expects, while the user is unconfirmed. */
  confirmationCode?: string;
  /** The code ConfirmForgotPassword expects, after ForgotPassword. */
  resetCode?: string;
  groups: string[];
}

export interface PoolGroup {
  GroupName: string;
  Description?: string;
  Precedence?: number;
  RoleArn?: string;
  CreationDate: number;
  LastModifiedDate: number;
}

export interface UserPool {
  Id: string;
  Name: string;
  Arn: string;
  CreationDate: number;
  LastModifiedDate: number;
  PasswordPolicy: PasswordPolicy;
  UsernameAttributes?: string[];
  AliasAttributes?: string[];
  AutoVerifiedAttributes?: string[];
  CaseSensitive: boolean;
  /** Whether only administrators may create users (SignUp refused). */
  AllowAdminCreateUserOnly: boolean;
  Domain?: string;
  /** The rest of what the pool was created with, echoed by DescribeUserPool. */
  settings: Record<string, unknown>;
  /** The pool's RSA signing key (private JWK): its tokens are signed with it, its JWKS publishes the public half. */
  signingKey: JsonWebKey;
  clients: Record<string, UserPoolClient>;
  users: Record<string, PoolUser>;
  groups: Record<string, PoolGroup>;
}

/** A refresh token's grant: what REFRESH_TOKEN_AUTH renews. */
export interface RefreshGrant {
  poolId: string;
  clientId: string;
  username: string;
  expiresAt: number;
}

interface State {
  pools: Record<string, UserPool>;
  refreshTokens: Record<string, RefreshGrant>;
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  MinimumLength: 8,
  RequireUppercase: true,
  RequireLowercase: true,
  RequireNumbers: true,
  RequireSymbols: true,
  TemporaryPasswordValidityDays: 7,
};

const POOL_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CLIENT_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SYMBOLS = '^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+- ';

const randomString = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
export const now = () => Math.floor(Date.now() / 1000);

/** A pool id as AWS makes them: `<region>_` and nine letters and digits. */
export const POOL_ID_PATTERN = /^[\w-]+_[0-9a-zA-Z]+$/;

export const poolNotFound = (id: string) => new AwsError('ResourceNotFoundException', `User pool ${id} does not exist.`);
export const clientNotFound = (id: string) => new AwsError('ResourceNotFoundException', `User pool client ${id} does not exist.`);
export const userNotFound = () => new AwsError('UserNotFoundException', 'User does not exist.');
export const groupNotFound = () => new AwsError('ResourceNotFoundException', 'Group not found.');
export const invalidParameter = (message: string) => new AwsError('InvalidParameterException', message);

/** What a password lacks under a pool's policy, in Cognito's words; undefined when it conforms. */
export function passwordProblem(password: string, policy: PasswordPolicy): string | undefined {
  const problem =
    password.length < policy.MinimumLength ? 'Password not long enough'
    : policy.RequireLowercase && !/[a-z]/.test(password) ? 'Password must have lowercase characters'
    : policy.RequireUppercase && !/[A-Z]/.test(password) ? 'Password must have uppercase characters'
    : policy.RequireNumbers && !/[0-9]/.test(password) ? 'Password must have numeric characters'
    : policy.RequireSymbols && ![...password].some((character) => SYMBOLS.includes(character)) ? 'Password must have symbol characters'
    : undefined;
  return problem && `Password did not conform with policy: ${problem}`;
}

export function checkPassword(password: unknown, policy: PasswordPolicy): string {
  if (typeof password !== 'string' || password === '') throw invalidParameter('Missing required parameter PASSWORD');
  const problem = passwordProblem(password, policy);
  if (problem) throw new AwsError('InvalidPasswordException', problem);
  return password;
}

/** A password that meets the policy: what AdminCreateUser makes when it is given none. */
export function temporaryPassword(policy: PasswordPolicy): string {
  const length = Math.max(policy.MinimumLength, 12);
  const base = randomString('ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789', length - 4);
  return `${base}Aa1!`;
}

/** The pool's name in SRP: its id after the underscore (`us-east-1_AbC123` → `AbC123`), as the client libraries take it. */
export const srpPoolName = (pool: UserPool) => pool.Id.slice(pool.Id.indexOf('_') + 1);

/** What a user's password is kept as: its scrypt hash (the password flows) and its SRP verifier (USER_SRP_AUTH). */
function passwordRecord(pool: UserPool, username: string, password: string): Pick<PoolUser, 'password' | 'srp'> {
  const salt = randomBytes(16);
  return { password: `${salt.toString('hex')}:${scryptSync(password, salt, 32).toString('hex')}`, srp: srpVerifier(srpPoolName(pool), username, password) };
}

export function passwordMatches(user: PoolUser, password: string): boolean {
  if (!user.password) return false;
  const [salt, hash] = user.password.split(':');
  return timingSafeEqual(scryptSync(password, Buffer.from(salt, 'hex'), 32), Buffer.from(hash, 'hex'));
}

/** The public half of a pool's key, as its JWKS lists it; the key id is the key's RFC 7638 thumbprint. */
export function publicJwk(pool: UserPool): JsonWebKey & { kid: string } {
  const { n, e } = createPublicKey(createPrivateKey({ key: pool.signingKey, format: 'jwk' })).export({ format: 'jwk' });
  const kid = createHash('sha256').update(JSON.stringify({ e, kty: 'RSA', n })).digest('base64url');
  return { alg: 'RS256', e, kid, kty: 'RSA', n, use: 'sig' };
}

/**
 * Cognito user pools (their clients, users and groups) and the refresh tokens they issued,
 * persisted in `<dataDir>/state/cognito.json` (the pools' signing keys with them, readable by
 * this user only, as every state file is).
 */
export class UserPoolStore {
  private readonly file: string;
  private readonly state: State;
  private readonly keys = new Map<string, KeyObject>();

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'cognito.json');
    this.state = readJson<State>(this.file, { pools: {}, refreshTokens: {} });
  }

  save(): void {
    writeJsonAtomic(this.file, this.state);
  }

  create(input: { Name: string; settings: Record<string, unknown> }, region: string, accountId: string): UserPool {
    const id = `${region}_${randomString(POOL_ID_ALPHABET, 9)}`;
    const created = now();
    const pool: UserPool = {
      Id: id,
      Name: input.Name,
      Arn: `arn:aws:cognito-idp:${region}:${accountId}:userpool/${id}`,
      CreationDate: created,
      LastModifiedDate: created,
      PasswordPolicy: DEFAULT_PASSWORD_POLICY,
      CaseSensitive: true,
      AllowAdminCreateUserOnly: false,
      settings: {},
      signingKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
      clients: {},
      users: {},
      groups: {},
    };
    applyPoolSettings(pool, input.settings);
    this.state.pools[id] = pool;
    this.save();
    return pool;
  }

  find(id: string): UserPool | undefined {
    return Object.hasOwn(this.state.pools, id) ? this.state.pools[id] : undefined;
  }

  get(id: unknown): UserPool {
    if (typeof id !== 'string' || id === '') throw invalidParameter('1 validation error detected: Value null at \'userPoolId\' failed to satisfy constraint: Member must not be null');
    const pool = this.find(id);
    if (!pool) throw poolNotFound(id);
    return pool;
  }

  list(): UserPool[] {
    return Object.values(this.state.pools);
  }

  delete(id: string): void {
    delete this.state.pools[id];
    this.keys.delete(id);
    for (const [token, grant] of Object.entries(this.state.refreshTokens)) if (grant.poolId === id) delete this.state.refreshTokens[token];
    this.save();
  }

  signingKey(pool: UserPool): KeyObject {
    let key = this.keys.get(pool.Id);
    if (!key) {
      key = createPrivateKey({ key: pool.signingKey, format: 'jwk' });
      this.keys.set(pool.Id, key);
    }
    return key;
  }

  /** The client by id, in any pool: InitiateAuth names only the client. */
  client(clientId: unknown): { pool: UserPool; client: UserPoolClient } {
    if (typeof clientId !== 'string' || clientId === '') throw invalidParameter("1 validation error detected: Value null at 'clientId' failed to satisfy constraint: Member must not be null");
    for (const pool of this.list()) if (Object.hasOwn(pool.clients, clientId)) return { pool, client: pool.clients[clientId] };
    throw clientNotFound(clientId);
  }

  addClient(pool: UserPool, input: { ClientName: string; GenerateSecret: boolean; settings: Record<string, unknown> }): UserPoolClient {
    const created = now();
    const client: UserPoolClient = {
      ClientId: randomString(CLIENT_ID_ALPHABET, 26),
      ClientName: input.ClientName,
      UserPoolId: pool.Id,
      ClientSecret: input.GenerateSecret ? randomString(CLIENT_ID_ALPHABET, 51) : undefined,
      ExplicitAuthFlows: [],
      accessTokenMinutes: 60,
      idTokenMinutes: 60,
      refreshTokenMinutes: 30 * 24 * 60,
      settings: {},
      PreventUserExistenceErrors: 'LEGACY',
      CreationDate: created,
      LastModifiedDate: created,
    };
    applyClientSettings(client, input.settings);
    pool.clients[client.ClientId] = client;
    this.save();
    return client;
  }

  addGroup(pool: UserPool, input: Omit<PoolGroup, 'CreationDate' | 'LastModifiedDate'>): PoolGroup {
    if (Object.hasOwn(pool.groups, input.GroupName)) throw new AwsError('GroupExistsException', 'A group with the name already exists.');
    const created = now();
    const group: PoolGroup = { ...input, CreationDate: created, LastModifiedDate: created };
    pool.groups[group.GroupName] = group;
    this.save();
    return group;
  }

  /** A user by user name, or by an email or phone number the pool signs in with (its username or alias attributes). */
  findUser(pool: UserPool, name: unknown): PoolUser | undefined {
    if (typeof name !== 'string' || name === '') return undefined;
    const same = (a: string, b: string) => (pool.CaseSensitive ? a === b : a.toLowerCase() === b.toLowerCase());
    const users = Object.values(pool.users);
    const byName = users.find((user) => same(user.Username, name));
    if (byName) return byName;
    const signInAttributes = [...(pool.UsernameAttributes ?? []), ...(pool.AliasAttributes ?? [])];
    return users.find((user) => signInAttributes.some((attribute) => user.attributes[attribute] !== undefined && same(user.attributes[attribute], name)));
  }

  user(pool: UserPool, name: unknown): PoolUser {
    const user = this.findUser(pool, name);
    if (!user) throw userNotFound();
    return user;
  }

  /**
   * A new user. With `UsernameAttributes` the name given is an email or phone number, which becomes that
   * attribute, and the user name is the user's `sub` (as Cognito does).
   */
  addUser(pool: UserPool, input: { name: string; attributes: Record<string, string>; password?: string; status: PoolUser['UserStatus'] }): PoolUser {
    const sub = randomUUID();
    const attributes: Record<string, string> = { sub, ...input.attributes };
    let username = input.name;
    if (pool.UsernameAttributes && pool.UsernameAttributes.length > 0) {
      const attribute = input.name.includes('@') ? 'email' : 'phone_number';
      if (!pool.UsernameAttributes.includes(attribute)) {
        throw invalidParameter(pool.UsernameAttributes.includes('email') ? 'Username should be an email.' : 'Username should be a phone number.');
      }
      attributes[attribute] = input.name;
      username = sub;
    }
    if (this.findUser(pool, input.name) || (username !== input.name && this.findUser(pool, username))) throw usernameExists(pool);
    const created = now();
    const user: PoolUser = {
      Username: username,
      attributes,
      UserStatus: input.status,
      Enabled: true,
      UserCreateDate: created,
      UserLastModifiedDate: created,
      ...(input.password === undefined ? {} : passwordRecord(pool, username, input.password)),
      groups: [],
    };
    pool.users[username] = user;
    this.save();
    return user;
  }

  setPassword(pool: UserPool, user: PoolUser, password: string, status: PoolUser['UserStatus']): void {
    Object.assign(user, passwordRecord(pool, user.Username, password));
    user.UserStatus = status;
    user.UserLastModifiedDate = now();
    this.save();
  }

  /** Keeps the SRP verifier of a password just proven right, for a user saved before SRP was served. */
  rememberSrpVerifier(pool: UserPool, user: PoolUser, password: string): void {
    if (user.srp) return;
    user.srp = srpVerifier(srpPoolName(pool), user.Username, password);
    this.save();
  }

  /** A new six-digit code, what Cognito would mail or text. */
  newCode(user: PoolUser, kind: 'confirmationCode' | 'resetCode'): string {
    const code = String(randomInt(1_000_000)).padStart(6, '0');
    user[kind] = code;
    this.save();
    return code;
  }

  issueRefreshToken(grant: RefreshGrant): string {
    const token = randomBytes(96).toString('base64url');
    this.state.refreshTokens[token] = grant;
    this.save();
    return token;
  }

  refreshGrant(token: unknown): RefreshGrant | undefined {
    if (typeof token !== 'string' || !Object.hasOwn(this.state.refreshTokens, token)) return undefined;
    const grant = this.state.refreshTokens[token];
    if (grant.expiresAt <= now()) {
      delete this.state.refreshTokens[token];
      this.save();
      return undefined;
    }
    return grant;
  }

  revokeRefreshTokens(poolId: string, username: string, clientId?: string): void {
    for (const [token, grant] of Object.entries(this.state.refreshTokens)) {
      if (grant.poolId === poolId && grant.username === username && (clientId === undefined || grant.clientId === clientId)) delete this.state.refreshTokens[token];
    }
    this.save();
  }
}

export function usernameExists(pool: UserPool): AwsError {
  return new AwsError('UsernameExistsException', pool.UsernameAttributes?.includes('email') ? 'An account with the given email already exists.' : 'User account already exists');
}

const bool = (value: unknown, fallback: boolean) => (value === undefined ? fallback : value === true || value === 'true');

/** What CreateUserPool and AWS::Cognito::UserPool take (the same names), applied to a pool. */
export function applyPoolSettings(pool: UserPool, settings: Record<string, unknown>): void {
  const policy = ((settings.Policies as Record<string, unknown> | undefined)?.PasswordPolicy ?? {}) as Record<string, unknown>;
  pool.PasswordPolicy = {
    MinimumLength: Number(policy.MinimumLength ?? DEFAULT_PASSWORD_POLICY.MinimumLength),
    RequireUppercase: bool(policy.RequireUppercase, DEFAULT_PASSWORD_POLICY.RequireUppercase),
    RequireLowercase: bool(policy.RequireLowercase, DEFAULT_PASSWORD_POLICY.RequireLowercase),
    RequireNumbers: bool(policy.RequireNumbers, DEFAULT_PASSWORD_POLICY.RequireNumbers),
    RequireSymbols: bool(policy.RequireSymbols, DEFAULT_PASSWORD_POLICY.RequireSymbols),
    TemporaryPasswordValidityDays: Number(policy.TemporaryPasswordValidityDays ?? DEFAULT_PASSWORD_POLICY.TemporaryPasswordValidityDays),
  };
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : undefined);
  pool.UsernameAttributes = list(settings.UsernameAttributes);
  pool.AliasAttributes = list(settings.AliasAttributes);
  pool.AutoVerifiedAttributes = list(settings.AutoVerifiedAttributes);
  pool.CaseSensitive = bool((settings.UsernameConfiguration as Record<string, unknown> | undefined)?.CaseSensitive, true);
  pool.AllowAdminCreateUserOnly = bool((settings.AdminCreateUserConfig as Record<string, unknown> | undefined)?.AllowAdminCreateUserOnly, false);
  const { Policies: _policies, PoolName: _name, UserPoolName: _poolName, UserPoolTags: _tags, ...rest } = settings;
  pool.settings = rest;
  pool.LastModifiedDate = now();
}

const MINUTES_PER_UNIT: Record<string, number> = { seconds: 1 / 60, minutes: 1, hours: 60, days: 24 * 60 };

/** What CreateUserPoolClient and AWS::Cognito::UserPoolClient take (the same names), applied to a client. */
export function applyClientSettings(client: UserPoolClient, settings: Record<string, unknown>): void {
  const units = (settings.TokenValidityUnits ?? {}) as Record<string, string>;
  const minutes = (value: unknown, unit: string | undefined, defaultUnit: string, fallback: number) => (value === undefined ? fallback : Number(value) * MINUTES_PER_UNIT[unit ?? defaultUnit]);
  client.accessTokenMinutes = minutes(settings.AccessTokenValidity, units.AccessToken, 'hours', 60);
  client.idTokenMinutes = minutes(settings.IdTokenValidity, units.IdToken, 'hours', 60);
  client.refreshTokenMinutes = minutes(settings.RefreshTokenValidity, units.RefreshToken, 'days', 30 * 24 * 60);
  client.ExplicitAuthFlows = Array.isArray(settings.ExplicitAuthFlows) ? settings.ExplicitAuthFlows.map(String) : ['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_CUSTOM_AUTH', 'ALLOW_USER_SRP_AUTH'];
  client.PreventUserExistenceErrors = settings.PreventUserExistenceErrors === 'ENABLED' ? 'ENABLED' : 'LEGACY';
  const { ClientName: _name, GenerateSecret: _secret, UserPoolId: _pool, ExplicitAuthFlows: _flows, PreventUserExistenceErrors: _errors, ...rest } = settings;
  client.settings = rest;
  client.LastModifiedDate = now();
}
