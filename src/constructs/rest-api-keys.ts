import { Construct } from 'constructs';
import * as naming from '../synth/naming';
import { invalid } from '../errors';
import type { Json } from './model';
import { CfnResource, ref } from './resource';
import type { RestApi } from './rest-api';

interface ApiKey {
  name?: Json;
  value?: Json;
  description?: Json;
  customerId?: Json;
  enabled?: Json;
}

/**
 * `provider.apiGateway.apiKeys` and `usagePlan`: one `ApiGatewayApiKey{n}` per key,
 * one usage plan (or one per named plan), and the keys attached to their plans.
 */
export class ApiKeys extends Construct {
  constructor(scope: Construct, id: string, api: RestApi) {
    super(scope, id);
    const provider = api.service.provider;
    const keys = api.config.apiKeys ?? provider.apiKeys;
    const usagePlan = api.config.usagePlan ?? provider.usagePlan;
    if (keys === undefined && usagePlan === undefined) return;
    const path = api.config.apiKeys !== undefined ? 'provider.apiGateway.apiKeys' : 'provider.apiKeys';
    if (keys !== undefined && !Array.isArray(keys)) throw invalid(path, 'a list of API keys', keys);

    if (Array.isArray(usagePlan)) {
      // Named plans: each key list is grouped under its plan's name.
      const groups = new Map<string, Json[]>();
      for (const entry of keys ?? []) {
        if (entry && typeof entry === 'object' && !Array.isArray(entry) && Object.keys(entry).length === 1 && Array.isArray(Object.values(entry)[0])) {
          const [plan, planKeys] = Object.entries(entry)[0];
          groups.set(plan, planKeys as Json[]);
        }
      }
      for (const planEntry of usagePlan) {
        const [plan, settings] = Object.entries(planEntry)[0];
        this.usagePlan(api, plan, settings);
        (groups.get(plan) ?? []).forEach((key, index) => this.key(api, key, index + 1, plan));
      }
      return;
    }
    this.usagePlan(api, undefined, (usagePlan ?? {}) as Record<string, Json>);
    (keys ?? []).forEach((key, index) => this.key(api, key, index + 1, undefined));
  }

  private usagePlan(api: RestApi, plan: string | undefined, settings: Record<string, Json>): void {
    const { service } = api;
    new CfnResource(this, `UsagePlan${plan ?? ''}`, {
      logicalId: naming.restUsagePlan(plan),
      type: 'AWS::ApiGateway::UsagePlan',
      properties: () => {
        const properties: Record<string, Json> = {
          ApiStages: [{ ApiId: api.apiId, Stage: service.stage }],
          Description: plan ? `Usage plan "${plan}" for ${service.name} ${service.stage} stage` : `Usage plan for ${service.name} ${service.stage} stage`,
          UsagePlanName: plan ? `${service.name}-${plan}-${service.stage}` : `${service.name}-${service.stage}`,
        };
        const quota = settings.quota as Record<string, Json> | undefined;
        if (quota) properties.Quota = pick(quota, { limit: 'Limit', offset: 'Offset', period: 'Period' });
        const throttle = settings.throttle as Record<string, Json> | undefined;
        if (throttle) properties.Throttle = pick(throttle, { burstLimit: 'BurstLimit', rateLimit: 'RateLimit' });
        return properties;
      },
      dependsOn: () => api.deploymentLogicalId,
    });
  }

  private key(api: RestApi, raw: Json, index: number, plan: string | undefined): void {
    const key: ApiKey = typeof raw === 'object' && raw !== null && !('Ref' in raw) && !Object.keys(raw).some(k => k.startsWith('Fn::'))
      ? (raw as ApiKey)
      : { name: raw };
    const logicalId = naming.restApiKey(index, plan);
    new CfnResource(this, logicalId, {
      logicalId,
      type: 'AWS::ApiGateway::ApiKey',
      properties: () => {
        const properties: Record<string, Json> = { Enabled: key.enabled ?? true };
        if (key.name !== undefined) properties.Name = key.name;
        if (key.value !== undefined) properties.Value = key.value;
        if (key.description !== undefined) properties.Description = key.description;
        if (key.customerId !== undefined) properties.CustomerId = key.customerId;
        properties.StageKeys = [{ RestApiId: api.apiId, StageName: api.service.stage }];
        return properties;
      },
      dependsOn: () => api.deploymentLogicalId,
    });
    new CfnResource(this, naming.restUsagePlanKey(index, plan), {
      logicalId: naming.restUsagePlanKey(index, plan),
      type: 'AWS::ApiGateway::UsagePlanKey',
      properties: () => ({ KeyId: ref(logicalId), KeyType: 'API_KEY', UsagePlanId: ref(naming.restUsagePlan(plan)) }),
    });
  }
}

function pick(source: Record<string, Json>, names: Record<string, string>): Record<string, Json> {
  const result: Record<string, Json> = {};
  for (const [from, to] of Object.entries(names)) if (source[from] !== undefined) result[to] = source[from];
  return result;
}
