import { Construct } from 'constructs';
import * as naming from '../../synth/naming';
import { ConfigError } from '../../errors';
import type { IamStatement, Json } from '../model';
import { Resource } from '../resource';
import { customResourceFunction, type CustomResourceFunction } from '../custom-resources';
import type { FunctionConstruct } from '../function';
import type { Service } from '../service';

const CUSTOM_SENDERS: readonly string[] = ['CustomSMSSender', 'CustomEmailSender'];
const KIND = 'existing-cup';
const HANDLER = 'cognito-user-pool/handler.handler';

export interface ExistingTrigger {
  pool: string;
  trigger: string;
  forceDeploy?: boolean;
  kmsKeyId?: Json;
}

/**
 * Every function's `Custom::CognitoUserPool` resource, by pool: resources of one pool wait for
 * each other (they read and write the same pool configuration), and the shared
 * custom-resource role may change the triggers of exactly these functions.
 */
class ExistingPools extends Construct {
  readonly functions: string[] = [];
  readonly kmsKeys: Json[] = [];
  /** The last custom resource per pool, and who owns each pool's triggers. */
  readonly lastByPool = new Map<string, string>();
  readonly triggerOwners = new Map<string, { fn: string; path: string }>();
  readonly provider: CustomResourceFunction;

  static of(service: Service): ExistingPools {
    return service.shared('ExistingCognitoUserPools', (scope, id) => new ExistingPools(scope, id));
  }

  private constructor(service: Service, id: string) {
    super(service, id);
    this.provider = customResourceFunction(service, KIND, HANDLER);
    this.provider.addStatements(KIND, () => this.statements());
  }

  private statements(): IamStatement[] {
    return [
      ...this.kmsKeys.map(key => ({ Effect: 'Allow', Resource: key, Action: ['kms:CreateGrant'] })),
      {
        Effect: 'Allow',
        Resource: '*',
        Action: ['cognito-idp:ListUserPools', 'cognito-idp:DescribeUserPool', 'cognito-idp:UpdateUserPool'],
      },
      ...this.functions.map(name => ({
        Effect: 'Allow',
        Resource: { 'Fn::Sub': `arn:\${AWS::Partition}:lambda:*:*:function:${name}` },
        Action: ['lambda:AddPermission', 'lambda:RemovePermission'],
      })),
      { Effect: 'Allow', Resource: { 'Fn::Sub': 'arn:${AWS::Partition}:iam::*:role/*' }, Action: ['iam:PassRole'] },
    ];
  }
}

/**
 * `{Fn}CustomCognitoUserPool1`: one custom resource per function attaching its triggers to an
 * existing user pool (a function can be attached to one existing pool).
 */
export class ExistingCognitoUserPools extends Resource {
  readonly type = 'Custom::CognitoUserPool';
  private readonly configs: Array<Record<string, Json>> = [];
  private forceDeploy = false;
  private readonly pools: ExistingPools;
  private readonly waitsFor?: string;

  static forFunction(fn: FunctionConstruct, pool: string, path: string): ExistingCognitoUserPools {
    const current = fn.node.tryFindChild('ExistingCognitoUserPool') as ExistingCognitoUserPools | undefined;
    if (current && current.pool !== pool) {
      throw new ConfigError(
        `Invalid configuration in '${path}.pool': a function can be attached to one existing user pool only; "${fn.key}" already uses ${JSON.stringify(current.pool)}, got ${JSON.stringify(pool)}`,
      );
    }
    return current ?? new ExistingCognitoUserPools(fn, 'ExistingCognitoUserPool', pool);
  }

  private constructor(private readonly fn: FunctionConstruct, id: string, readonly pool: string) {
    super(fn, id);
    this.pools = ExistingPools.of(fn.service);
    this.pools.functions.push(fn.physicalName);
    this.waitsFor = this.pools.lastByPool.get(pool);
    this.pools.lastByPool.set(pool, this.logicalId);
  }

  get logicalId() {
    return naming.existingCognitoUserPool(this.fn.key);
  }

  add(config: ExistingTrigger, path: string): void {
    const ownerKey = `${this.pool}\u0000${config.trigger}`;
    const owner = this.pools.triggerOwners.get(ownerKey);
    if (owner && owner.fn !== this.fn.key) {
      // At deploy time the later function would silently replace the earlier one's trigger.
      throw new ConfigError(
        `Invalid configuration in '${path}.trigger': existing pool ${JSON.stringify(this.pool)} already gets its ${config.trigger} trigger from function "${owner.fn}" at '${owner.path}'; a trigger calls one function`,
      );
    }
    this.pools.triggerOwners.set(ownerKey, { fn: this.fn.key, path });
    const entry: Record<string, Json> = { Trigger: config.trigger };
    if (CUSTOM_SENDERS.includes(config.trigger)) {
      if (config.kmsKeyId === undefined) {
        throw new ConfigError(`Invalid configuration in '${path}': the ${config.trigger} trigger needs a "kmsKeyId"`);
      }
      entry.LambdaVersion = 'V1_0';
      entry.KMSKeyID = config.kmsKeyId;
      if (!this.pools.kmsKeys.some(key => JSON.stringify(key) === JSON.stringify(config.kmsKeyId))) this.pools.kmsKeys.push(config.kmsKeyId);
    }
    this.configs.push(entry);
    if (config.forceDeploy) this.forceDeploy = true;
  }

  protected properties() {
    const properties: Record<string, Json> = {
      ServiceToken: this.pools.provider.arn,
      FunctionName: this.fn.physicalName,
      UserPoolName: this.pool,
      UserPoolConfigs: this.configs,
    };
    if (this.forceDeploy) properties.ForceDeploy = deploymentTimestamp(this.fn.service);
    return properties;
  }

  protected override attributes() {
    const dependsOn = [this.fn.lambda.logicalId, this.pools.provider.logicalId];
    if (this.waitsFor) dependsOn.push(this.waitsFor);
    return { before: { Version: 1, DependsOn: dependsOn } };
  }
}

/** The packaging instant in milliseconds, as in the artifact directory (`…/1704067200000-2024-01-01T…`): a new value every deploy. */
function deploymentTimestamp(service: Service): number {
  const match = /\/(\d+)-[^/]*$/.exec(service.artifactDirectory);
  return match ? Number(match[1]) : 0;
}
