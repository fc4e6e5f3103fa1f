import { AwsError } from '../protocol/errors';
import type { KmsKey } from '../kms/keys';
import type { ProviderContext, Provisioned, ResourceProvider } from './provider';

const policyOf = (properties: Record<string, unknown>) => (properties.KeyPolicy === undefined ? undefined : typeof properties.KeyPolicy === 'string' ? properties.KeyPolicy : JSON.stringify(properties.KeyPolicy));
const tagsOf = (properties: Record<string, unknown>) => ((properties.Tags as { Key: string; Value: string }[] | undefined) ?? []).map(({ Key, Value }) => ({ TagKey: Key, TagValue: Value }));

/** Ref is the key id; Fn::GetAtt Arn and KeyId, as CloudFormation returns them. */
function provisioned(key: KmsKey): Provisioned {
  return { physicalId: key.KeyId, attributes: { Arn: key.Arn, KeyId: key.KeyId } };
}

/** Enabled: false makes the key disabled (a stack may say so at creation and change it later). */
function applyEnabled(key: KmsKey, properties: Record<string, unknown>, context: ProviderContext): void {
  const enabled = properties.Enabled === undefined || properties.Enabled === true || properties.Enabled === 'true';
  if (key.KeyState !== 'PendingDeletion') context.cloud.kms.setState(key, enabled ? 'Enabled' : 'Disabled');
}

/** AWS::KMS::Key: a key of the local KMS with its own material; removing it schedules its deletion. */
export const kmsKeyProvider: ResourceProvider = {
  replaceOn: ['KeySpec', 'KeyUsage'],
  create(properties, context) {
    const key = context.cloud.kms.create(
      { Description: properties.Description as string | undefined, KeyUsage: properties.KeyUsage as string | undefined, KeySpec: properties.KeySpec as string | undefined, Policy: policyOf(properties), Tags: tagsOf(properties) },
      context.region,
    );
    applyEnabled(key, properties, context);
    return provisioned(key);
  },
  update(properties, previous, context) {
    const key = context.cloud.kms.resolve(previous.physicalId, context.region);
    key.Description = (properties.Description as string | undefined) ?? '';
    key.Policy = policyOf(properties);
    key.Tags = tagsOf(properties);
    applyEnabled(key, properties, context);
    return provisioned(key);
  },
  delete(record, context) {
    // CloudFormation schedules the key's deletion (PendingWindowInDays, 7–30, default 30); it is not removed at once.
    const { kms } = context.cloud;
    let key: KmsKey;
    try {
      key = kms.resolve(record.physicalId, context.region);
    } catch {
      return;
    }
    if (key.KeyState === 'PendingDeletion') return;
    const days = Number(record.properties.PendingWindowInDays ?? 30);
    kms.setState(key, 'PendingDeletion', { date: Math.floor(Date.now() / 1000) + days * 86_400, days });
  },
};

function target(properties: Record<string, unknown>, context: ProviderContext): KmsKey {
  const key = context.cloud.kms.resolve(String(properties.TargetKeyId ?? ''), context.region);
  if (key.KeyState === 'PendingDeletion') throw new AwsError('KMSInvalidStateException', `${key.Arn} is pending deletion.`);
  return key;
}

/** AWS::KMS::Alias: Ref is the alias name; a new TargetKeyId points it at another key. */
export const kmsAliasProvider: ResourceProvider = {
  replaceOn: ['AliasName'],
  create(properties, context) {
    const name = String(properties.AliasName ?? '');
    if (!name.startsWith('alias/') || name.startsWith('alias/aws/')) throw new AwsError('ValidationException', `Alias must start with the prefix "alias/" and not "alias/aws/": ${name}`);
    if (context.cloud.kms.alias(name, context.region)) throw new AwsError('AlreadyExistsException', `An alias with the name ${context.cloud.kms.aliasArn(context.region, name)} already exists`);
    context.cloud.kms.createAlias(name, target(properties, context), context.region);
    return { physicalId: name };
  },
  update(properties, previous, context) {
    const alias = context.cloud.kms.alias(previous.physicalId, context.region);
    if (alias) context.cloud.kms.retarget(alias, target(properties, context));
    return { physicalId: previous.physicalId };
  },
  delete(record, context) {
    context.cloud.kms.deleteAlias(record.physicalId, context.region);
  },
};
