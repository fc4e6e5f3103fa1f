import { Construct } from 'constructs';
import * as t from '../../config/typanion';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { Json } from '../model';
import { Resource, getAtt } from '../resource';
import type { FunctionConstruct } from '../function';
import type { Service } from '../service';
import { isEither, isIntrinsic, validateEvent } from './event-schema';
import { lambdaPermission } from './lambda-permission';
import { ExistingCognitoUserPools } from './cognito-user-pool-existing';

export const TRIGGERS = [
  'PreSignUp',
  'PostConfirmation',
  'PreAuthentication',
  'PostAuthentication',
  'PreTokenGeneration',
  'CustomMessage',
  'DefineAuthChallenge',
  'CreateAuthChallenge',
  'VerifyAuthChallengeResponse',
  'UserMigration',
  'CustomSMSSender',
  'CustomEmailSender',
] as const;
const CUSTOM_SENDERS: readonly string[] = ['CustomSMSSender', 'CustomEmailSender'];

const isKmsKey = () =>
  isEither<string | Record<string, unknown>>('a KMS key ARN ("arn:aws:kms:…") or a CloudFormation intrinsic', [
    t.cascade(t.isString(), [t.matchesRegExp(/^arn:aws[a-z-]*:kms:/)]),
    isIntrinsic(),
  ]);

const schema = t.isObject({
  pool: t.cascade(t.isString(), [t.hasMinLength(1), t.hasMaxLength(128)]),
  trigger: t.isEnum(TRIGGERS),
  existing: t.isOptional(t.isBoolean()),
  forceDeploy: t.isOptional(t.isBoolean()),
  kmsKeyId: t.isOptional(isKmsKey()),
});

export type CognitoUserPoolConfig = t.InferType<typeof schema>;

/**
 * `cognitoUserPool` event: the function becomes a Lambda trigger of a user pool this stack
 * creates (`CognitoUserPool{Pool}`, shared by every function naming it), or, with
 * `existing: true`, of a pool that already exists (through a custom resource).
 */
export class CognitoUserPoolEvent extends Construct {
  static readonly type = 'cognitoUserPool';
  static readonly description = 'A Cognito user pool trigger (PreSignUp, PostConfirmation, …)';
  static readonly schema = schema;

  constructor(fn: FunctionConstruct, id: string, raw: unknown, path: string) {
    super(fn, id);
    const config = validateEvent(schema, raw, path);
    if (config.existing) {
      ExistingCognitoUserPools.forFunction(fn, config.pool, path).add(config, path);
      return;
    }
    if (config.forceDeploy) {
      throw new ConfigError(`Invalid configuration in '${path}.forceDeploy': only for existing pools (add existing: true)`);
    }
    const pool = userPool(fn.service, config.pool, `${path}.pool`);
    pool.addTrigger(fn, config.trigger, config.kmsKeyId, path);
    const permissionId = naming.cognitoUserPoolPermission(fn.key, config.pool, config.trigger);
    // The same function on the same trigger twice needs one permission.
    if (fn.node.tryFindChild(permissionId)) return;
    lambdaPermission(fn, permissionId, fn, {
      logicalId: permissionId,
      principal: 'cognito-idp.amazonaws.com',
      sourceArn: () => getAtt(pool.logicalId, 'Arn'),
    });
  }
}

function userPool(service: Service, name: string, path: string): CognitoUserPool {
  const logicalId = naming.cognitoUserPool(name);
  const pool = service.shared(logicalId, (scope, id) => new CognitoUserPool(scope, id, name, path));
  if (pool.poolName !== name) {
    // The reference would merge both into one resource, keeping only the later pool's name.
    throw new ConfigError(
      `Invalid configuration in '${path}': pool ${JSON.stringify(name)} and pool ${JSON.stringify(pool.poolName)} (at '${pool.path}') both become the logical id "${logicalId}"; rename one of them`,
    );
  }
  return pool;
}

interface Trigger {
  fn: FunctionConstruct;
  path: string;
}

/** `CognitoUserPool{Pool}`: its `LambdaConfig` collects the triggers of every function that names the pool. */
export class CognitoUserPool extends Resource {
  readonly type = 'AWS::Cognito::UserPool';
  private readonly triggers = new Map<string, Trigger>();
  private readonly dependencies: string[] = [];
  private kmsKey?: { value: Json; path: string };

  constructor(scope: Construct, id: string, readonly poolName: string, readonly path: string) {
    super(scope, id);
    this.node.addValidation({
      validate: () => {
        const sender = [...this.triggers.entries()].find(([trigger]) => CUSTOM_SENDERS.includes(trigger));
        if (!sender || this.kmsKey) return [];
        return [
          `Invalid configuration in '${sender[1].path}': the ${sender[0]} trigger needs a "kmsKeyId" (pool ${JSON.stringify(this.poolName)} has none)`,
        ];
      },
    });
  }

  get logicalId() {
    return naming.cognitoUserPool(this.poolName);
  }

  addTrigger(fn: FunctionConstruct, trigger: string, kmsKeyId: Json, path: string): void {
    const existing = this.triggers.get(trigger);
    if (existing && existing.fn !== fn) {
      // The reference keeps only the last function for a trigger, silently.
      throw new ConfigError(
        `Invalid configuration in '${path}.trigger': pool ${JSON.stringify(this.poolName)} already has a ${trigger} trigger (function "${existing.fn.key}" at '${existing.path}'); a trigger calls one function`,
      );
    }
    if (!existing) this.triggers.set(trigger, { fn, path });
    this.dependencies.push(fn.targetAlias ?? fn.lambda.logicalId);
    if (kmsKeyId === undefined || !CUSTOM_SENDERS.includes(trigger)) return;
    if (this.kmsKey && JSON.stringify(this.kmsKey.value) !== JSON.stringify(kmsKeyId)) {
      throw new ConfigError(
        `Invalid configuration in '${path}.kmsKeyId': pool ${JSON.stringify(this.poolName)} already uses another KMS key (at '${this.kmsKey.path}'); a pool has one KMS key`,
      );
    }
    this.kmsKey ??= { value: kmsKeyId, path: `${path}.kmsKeyId` };
  }

  protected properties() {
    const lambdaConfig: Record<string, Json> = {};
    for (const [trigger, { fn }] of this.triggers) {
      lambdaConfig[trigger] = CUSTOM_SENDERS.includes(trigger) ? { LambdaArn: fn.targetArn, LambdaVersion: 'V1_0' } : fn.targetArn;
    }
    if (this.kmsKey) lambdaConfig.KMSKeyID = this.kmsKey.value;
    return { UserPoolName: this.poolName, LambdaConfig: lambdaConfig };
  }

  protected override attributes() {
    return { after: { DependsOn: [...this.dependencies] } };
  }
}
