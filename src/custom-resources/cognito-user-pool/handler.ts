/**
 * `Custom::CognitoUserPool`: attaches a function's triggers to a user pool this stack does not own.
 *
 * The pool is found by name. Its other settings and the triggers of other functions are kept:
 * UpdateUserPool resets whatever it is not given, so the pool's current settings are sent back
 * with the new `LambdaConfig`. Cognito gets (or loses) the permission to invoke the function.
 */
import { arnParts, respond, type CustomResourceEvent, type LambdaContext } from '../response';

export interface TriggerConfig {
  Trigger: string;
  LambdaVersion?: string;
  KMSKeyID?: string;
}

export interface Properties {
  FunctionName: string;
  UserPoolName: string;
  UserPoolConfigs: TriggerConfig[];
  ForceDeploy?: number;
}

export interface UserPool {
  Id: string;
  Arn: string;
  LambdaConfig?: Record<string, unknown>;
  [setting: string]: unknown;
}

/** What the handler needs from Cognito and Lambda (tests pass fakes; Lambda's runtime ships the SDK). */
export interface Apis {
  /** The pool with this name (described in full), or undefined. */
  findUserPool(name: string): Promise<UserPool | undefined>;
  updateUserPool(input: Record<string, unknown>): Promise<void>;
  addPermission(input: Record<string, unknown>): Promise<void>;
  removePermission(input: Record<string, unknown>): Promise<void>;
}

/** Settings UpdateUserPool accepts; anything left out is reset to its default. */
const UPDATABLE = [
  'Policies',
  'DeletionProtection',
  'AutoVerifiedAttributes',
  'SmsVerificationMessage',
  'EmailVerificationMessage',
  'EmailVerificationSubject',
  'VerificationMessageTemplate',
  'SmsAuthenticationMessage',
  'UserAttributeUpdateSettings',
  'MfaConfiguration',
  'DeviceConfiguration',
  'EmailConfiguration',
  'SmsConfiguration',
  'UserPoolTags',
  'AdminCreateUserConfig',
  'UserPoolAddOns',
  'AccountRecoverySetting',
];
const CUSTOM_SENDERS = ['CustomSMSSender', 'CustomEmailSender'];

export function makeHandler(apis: Apis) {
  return async (event: CustomResourceEvent<Properties>, context: LambdaContext): Promise<void> => {
    const { FunctionName, UserPoolName } = event.ResourceProperties;
    await respond(event, context, `${FunctionName}-${UserPoolName}`, async () => {
      const { partition, region, account } = arnParts(context.invokedFunctionArn);
      const functionArn = (name: string) => `arn:${partition}:lambda:${region}:${account}:function:${name}`;
      const old = event.OldResourceProperties;
      if (event.RequestType === 'Delete') {
        await detach(apis, UserPoolName, FunctionName, functionArn(FunctionName));
        return;
      }
      if (old && (old.UserPoolName !== UserPoolName || old.FunctionName !== FunctionName)) {
        await detach(apis, old.UserPoolName, old.FunctionName, functionArn(old.FunctionName));
      }
      const pool = await apis.findUserPool(UserPoolName);
      if (!pool) throw new Error(`No user pool named "${UserPoolName}" in this account and region`);
      await apis.updateUserPool(updateInput(pool, lambdaConfig(pool, functionArn(FunctionName), event.ResourceProperties.UserPoolConfigs ?? [])));
      await allow(apis, FunctionName, pool);
    });
  };
}

/** The permission's statement id: one per pool on the function. */
export const statementId = (poolId: string) => `fw-existing-cup-${poolId.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 100);

/** The pool's triggers with this function's replaced by `configs` (none removes them). */
export function lambdaConfig(pool: UserPool, functionArn: string, configs: TriggerConfig[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [trigger, target] of Object.entries(pool.LambdaConfig ?? {})) {
    const arn = typeof target === 'object' && target !== null ? (target as { LambdaArn?: string }).LambdaArn : target;
    if (arn !== functionArn) result[trigger] = target;
  }
  for (const config of configs) {
    if (CUSTOM_SENDERS.includes(config.Trigger)) {
      result[config.Trigger] = { LambdaArn: functionArn, LambdaVersion: config.LambdaVersion ?? 'V1_0' };
      if (config.KMSKeyID !== undefined) result.KMSKeyID = config.KMSKeyID;
    } else {
      result[config.Trigger] = functionArn;
    }
  }
  if (!CUSTOM_SENDERS.some(trigger => trigger in result)) delete result.KMSKeyID;
  return result;
}

/** The pool's current settings, so UpdateUserPool changes nothing but the triggers. */
export function updateInput(pool: UserPool, config: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = { UserPoolId: pool.Id };
  for (const key of UPDATABLE) if (pool[key] !== undefined) input[key] = pool[key];
  // DescribeUserPool still reports this deprecated setting, which UpdateUserPool refuses beside the password policy's.
  const admin = input.AdminCreateUserConfig as Record<string, unknown> | undefined;
  if (admin && 'UnusedAccountValidityDays' in admin) {
    const { UnusedAccountValidityDays: _deprecated, ...rest } = admin;
    input.AdminCreateUserConfig = rest;
  }
  input.LambdaConfig = config;
  return input;
}

async function detach(apis: Apis, poolName: string, functionName: string, functionArn: string): Promise<void> {
  const pool = await apis.findUserPool(poolName);
  // A pool deleted meanwhile has nothing left to detach.
  if (!pool) return;
  await apis.updateUserPool(updateInput(pool, lambdaConfig(pool, functionArn, [])));
  try {
    await apis.removePermission({ FunctionName: functionName, StatementId: statementId(pool.Id) });
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
  }
}

async function allow(apis: Apis, functionName: string, pool: UserPool): Promise<void> {
  try {
    await apis.addPermission({
      FunctionName: functionName,
      StatementId: statementId(pool.Id),
      Action: 'lambda:InvokeFunction',
      Principal: 'cognito-idp.amazonaws.com',
      SourceArn: pool.Arn,
    });
  } catch (error) {
    // Already granted by an earlier create or update.
    if ((error as { name?: string }).name !== 'ResourceConflictException') throw error;
  }
}

/** The SDK v3 clients of Lambda's Node.js runtime, loaded on first use (fw itself does not depend on them). */
function sdkApis(): Apis {
  type Client = { send(command: unknown): Promise<any> };
  let cognito: { client: Client; sdk: any } | undefined;
  let lambda: { client: Client; sdk: any } | undefined;
  const load = (name: string, client: string) => {
    const sdk = require(name);
    return { client: new sdk[client]({}) as Client, sdk };
  };
  const idp = () => (cognito ??= load('@aws-sdk/client-cognito-identity-provider', 'CognitoIdentityProviderClient'));
  const fn = () => (lambda ??= load('@aws-sdk/client-lambda', 'LambdaClient'));
  return {
    async findUserPool(name) {
      let NextToken: string | undefined;
      do {
        const page = await idp().client.send(new (idp().sdk.ListUserPoolsCommand)({ MaxResults: 60, NextToken }));
        const match = (page.UserPools ?? []).find((pool: { Name?: string }) => pool.Name === name);
        if (match) {
          const described = await idp().client.send(new (idp().sdk.DescribeUserPoolCommand)({ UserPoolId: match.Id }));
          return described.UserPool as UserPool;
        }
        NextToken = page.NextToken;
      } while (NextToken);
      return undefined;
    },
    async updateUserPool(input) {
      await idp().client.send(new (idp().sdk.UpdateUserPoolCommand)(input));
    },
    async addPermission(input) {
      await fn().client.send(new (fn().sdk.AddPermissionCommand)(input));
    },
    async removePermission(input) {
      await fn().client.send(new (fn().sdk.RemovePermissionCommand)(input));
    },
  };
}

export const handler = makeHandler(sdkApis());
