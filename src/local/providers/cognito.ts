import { applyClientSettings, applyPoolSettings, clientNotFound, groupNotFound } from '../cognito/user-pools';
import { generatedName, randomSuffix } from './names';
import type { ProviderContext, Provisioned, ResourceProvider } from './provider';

function poolProvisioned(id: string, arn: string, region: string): Provisioned {
  const providerName = `cognito-idp.${region}.amazonaws.com/${id}`;
  return { physicalId: id, attributes: { Arn: arn, ProviderName: providerName, ProviderURL: `https://${providerName}`, UserPoolId: id } };
}

const poolName = (properties: Record<string, unknown>, context: ProviderContext) => (typeof properties.UserPoolName === 'string' ? properties.UserPoolName : generatedName(context.stackName, context.logicalId, 128));

/** AWS::Cognito::UserPool: a pool of the local Cognito; Ref is its id (`us-east-1_XXXXXXXXX`). */
export const userPoolProvider: ResourceProvider = {
  replaceOn: ['AliasAttributes', 'UsernameAttributes', 'UsernameConfiguration'],
  create(properties, context) {
    const pool = context.cloud.cognito.create({ Name: poolName(properties, context), settings: properties }, context.region, context.accountId);
    return poolProvisioned(pool.Id, pool.Arn, context.region);
  },
  update(properties, previous, context) {
    const store = context.cloud.cognito;
    const pool = store.get(previous.physicalId);
    pool.Name = poolName(properties, context);
    applyPoolSettings(pool, properties);
    store.save();
    return poolProvisioned(pool.Id, pool.Arn, context.region);
  },
  delete(record, context) {
    if (context.cloud.cognito.find(record.physicalId)) context.cloud.cognito.delete(record.physicalId);
  },
};

/** AWS::Cognito::UserPoolClient: Ref is the client id; `GenerateSecret` gives it a secret (GetAtt ClientSecret). */
export const userPoolClientProvider: ResourceProvider = {
  replaceOn: ['UserPoolId', 'GenerateSecret'],
  create(properties, context) {
    const store = context.cloud.cognito;
    const pool = store.get(String(properties.UserPoolId));
    const client = store.addClient(pool, { ClientName: String(properties.ClientName ?? context.logicalId), GenerateSecret: properties.GenerateSecret === true || properties.GenerateSecret === 'true', settings: properties });
    return { physicalId: client.ClientId, attributes: { ClientId: client.ClientId, ClientSecret: client.ClientSecret ?? '', Name: client.ClientName } };
  },
  update(properties, previous, context) {
    const store = context.cloud.cognito;
    const pool = store.get(String(properties.UserPoolId));
    if (!Object.hasOwn(pool.clients, previous.physicalId)) throw clientNotFound(previous.physicalId);
    const client = pool.clients[previous.physicalId];
    client.ClientName = String(properties.ClientName ?? context.logicalId);
    applyClientSettings(client, properties);
    store.save();
    return { physicalId: client.ClientId, attributes: { ClientId: client.ClientId, ClientSecret: client.ClientSecret ?? '', Name: client.ClientName } };
  },
  delete(record, context) {
    const store = context.cloud.cognito;
    const pool = store.find(String(record.properties.UserPoolId));
    if (pool) {
      delete pool.clients[record.physicalId];
      store.save();
    }
  },
};

/** AWS::Cognito::UserPoolGroup: Ref is the group's name. */
export const userPoolGroupProvider: ResourceProvider = {
  replaceOn: ['UserPoolId', 'GroupName'],
  create(properties, context) {
    const store = context.cloud.cognito;
    const pool = store.get(String(properties.UserPoolId));
    const name = typeof properties.GroupName === 'string' ? properties.GroupName : `${context.logicalId}-${randomSuffix(12)}`;
    const group = store.addGroup(pool, { GroupName: name, Description: properties.Description as string | undefined, Precedence: properties.Precedence === undefined ? undefined : Number(properties.Precedence), RoleArn: properties.RoleArn as string | undefined });
    return { physicalId: group.GroupName };
  },
  update(properties, previous, context) {
    const store = context.cloud.cognito;
    const pool = store.get(String(properties.UserPoolId));
    if (!Object.hasOwn(pool.groups, previous.physicalId)) throw groupNotFound();
    const group = pool.groups[previous.physicalId];
    Object.assign(group, { Description: properties.Description, Precedence: properties.Precedence === undefined ? undefined : Number(properties.Precedence), RoleArn: properties.RoleArn });
    store.save();
    return { physicalId: previous.physicalId };
  },
  delete(record, context) {
    const store = context.cloud.cognito;
    const pool = store.find(String(record.properties.UserPoolId));
    if (!pool) return;
    delete pool.groups[record.physicalId];
    for (const user of Object.values(pool.users)) user.groups = user.groups.filter((name) => name !== record.physicalId);
    store.save();
  },
};

/** AWS::Cognito::UserPoolDomain: set on its pool (DescribeUserPool's Domain); the hosted UI is not served (the deploy report says so). */
export const userPoolDomainProvider: ResourceProvider = {
  replaceOn: ['Domain', 'UserPoolId'],
  create(properties, context) {
    const store = context.cloud.cognito;
    const pool = store.get(String(properties.UserPoolId));
    pool.Domain = String(properties.Domain);
    store.save();
    return { physicalId: pool.Domain, attributes: { CloudFrontDistribution: `d${randomSuffix(13).toLowerCase()}.cloudfront.net` } };
  },
  delete(record, context) {
    const store = context.cloud.cognito;
    const pool = store.find(String(record.properties.UserPoolId));
    if (pool?.Domain === record.physicalId) {
      delete pool.Domain;
      store.save();
    }
  },
};
