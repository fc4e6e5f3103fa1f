import { AwsError } from '../protocol/errors';
import { randomPassword, type PasswordOptions } from '../secretsmanager/secrets';
import { randomSuffix } from './names';
import type { ProviderContext, ResourceProvider } from './provider';

/** The secret's value: SecretString as given, or a password GenerateSecretString makes (inside its template when it has one). */
function secretString(properties: Record<string, unknown>): string | undefined {
  const generate = properties.GenerateSecretString as (PasswordOptions & { SecretStringTemplate?: string; GenerateStringKey?: string }) | undefined;
  if (generate === undefined) return properties.SecretString === undefined ? undefined : String(properties.SecretString);
  if (properties.SecretString !== undefined) throw new AwsError('InvalidRequest', 'You can\'t specify both SecretString and GenerateSecretString');
  const { SecretStringTemplate: template, GenerateStringKey: key, ...options } = generate;
  if ((template === undefined) !== (key === undefined)) throw new AwsError('InvalidRequest', 'SecretStringTemplate and GenerateStringKey must both be specified or both be left out');
  const password = randomPassword({ ...options, PasswordLength: options.PasswordLength === undefined ? undefined : Number(options.PasswordLength) });
  if (template === undefined || key === undefined) return password;
  let parsed: unknown;
  try {
    parsed = JSON.parse(template);
  } catch {
    throw new AwsError('InvalidRequest', `SecretStringTemplate is not a JSON object: ${template}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new AwsError('InvalidRequest', `SecretStringTemplate is not a JSON object: ${template}`);
  return JSON.stringify({ ...parsed, [key]: password });
}

function provisioned(arn: string) {
  return { physicalId: arn, attributes: { Id: arn } };
}

/** AWS::SecretsManager::Secret: a secret of the local Secrets Manager; Ref and Id are its ARN. */
export const secretProvider: ResourceProvider = {
  replaceOn: ['Name'],
  create(properties, context: ProviderContext) {
    const name = typeof properties.Name === 'string' ? properties.Name : `${context.logicalId}-${randomSuffix(12)}`;
    const value = secretString(properties);
    const secret = context.cloud.secretsManager.create(
      {
        Name: name,
        Description: properties.Description as string | undefined,
        KmsKeyId: properties.KmsKeyId as string | undefined,
        Tags: properties.Tags as { Key: string; Value: string }[] | undefined,
        value: value === undefined ? undefined : { SecretString: value },
      },
      context.region,
      context.accountId,
    );
    return provisioned(secret.ARN);
  },
  update(properties, previous, context) {
    const store = context.cloud.secretsManager;
    const secret = store.get(previous.physicalId, context.region);
    secret.Tags = (properties.Tags as { Key: string; Value: string }[] | undefined) ?? [];
    store.update(secret, { Description: properties.Description as string | undefined, KmsKeyId: properties.KmsKeyId as string | undefined });
    const before = previous.properties as Record<string, unknown> | undefined;
    const valueChanged = JSON.stringify([before?.SecretString, before?.GenerateSecretString]) !== JSON.stringify([properties.SecretString, properties.GenerateSecretString]);
    const value = valueChanged ? secretString(properties) : undefined;
    if (value !== undefined) store.putValue(secret, { SecretString: value });
    return provisioned(secret.ARN);
  },
  delete(record, context) {
    // CloudFormation deletes a stack's secret without a recovery window.
    const store = context.cloud.secretsManager;
    const secret = store.find(record.physicalId, context.region);
    if (secret) store.delete(secret, 0);
  },
};
