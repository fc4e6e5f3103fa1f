import { AwsError } from '../protocol/errors';
import { tagMap } from '../state/resource-tags';
import type { LocalServices } from '../service-interfaces';
import { jsonResponse, type LocalResponse } from '../http';
import { allowsPublicAccess, policyStatements } from './resource-policies';
import { randomPassword, versionOf, type PasswordOptions, type Secret, type SecretValue } from './secrets';

const JSON_11 = 'application/x-amz-json-1.1';

const invalidParameter = (message: string) => new AwsError('InvalidParameterException', message);

/** The value a write carries: a string or a binary, never both. */
function valueOf(input: Record<string, unknown>): SecretValue | undefined {
  const string = input.SecretString as string | undefined;
  const binary = input.SecretBinary as string | undefined;
  if (string !== undefined && binary !== undefined) throw invalidParameter("You can't specify both a binary secret value and a string secret value in the same secret.");
  if (string !== undefined) return { SecretString: string };
  if (binary !== undefined) return { SecretBinary: binary };
  return undefined;
}

function secretId(input: Record<string, unknown>): string {
  if (typeof input.SecretId !== 'string' || input.SecretId === '') throw invalidParameter('You must provide a SecretId.');
  return input.SecretId;
}

function versionsToStages(secret: Secret): Record<string, string[]> {
  return Object.fromEntries(secret.Versions.filter((version) => version.VersionStages.length > 0).map((version) => [version.VersionId, version.VersionStages]));
}

/** A secret as DescribeSecret and ListSecrets describe it. */
function described(secret: Secret): Record<string, unknown> {
  return {
    ARN: secret.ARN,
    Name: secret.Name,
    Description: secret.Description,
    KmsKeyId: secret.KmsKeyId,
    LastChangedDate: secret.LastChangedDate,
    DeletedDate: secret.DeletedDate,
    Tags: secret.Tags,
    CreatedDate: secret.CreatedDate,
  };
}

/** ListSecrets' Filters: each key's values are prefixes (a leading `!` negates), all filters must match. */
function matches(secret: Secret, filters: { Key?: string; Values?: string[] }[]): boolean {
  return filters.every(({ Key, Values = [] }) => {
    const fields =
      Key === 'name' ? [secret.Name]
      : Key === 'description' ? [secret.Description ?? '']
      : Key === 'tag-key' ? secret.Tags.map((tag) => tag.Key)
      : Key === 'tag-value' ? secret.Tags.map((tag) => tag.Value)
      : [secret.Name, secret.Description ?? '', ...secret.Tags.flatMap((tag) => [tag.Key, tag.Value])];
    return Values.some((value) => (value.startsWith('!') ? !fields.some((field) => field.startsWith(value.slice(1))) : fields.some((field) => field.startsWith(value))));
  });
}

/** A secret's value as GetSecretValue and BatchGetSecretValue answer it: the AWSCURRENT version unless told. */
function valueRead(secret: Secret, versionId?: string, stage?: string): Record<string, unknown> {
  const { VersionId, SecretString, SecretBinary, VersionStages, CreatedDate } = versionOf(secret, versionId, stage);
  return { ARN: secret.ARN, Name: secret.Name, VersionId, SecretString, SecretBinary, VersionStages, CreatedDate };
}

/**
 * BatchGetSecretValue: up to 20 secrets by SecretIdList, each one that cannot be read an entry of
 * Errors; or the secrets ListSecrets' Filters match, MaxResults (≤ 20) a page.
 */
function batchGetSecretValue(cloud: LocalServices, input: Record<string, unknown>, region: string): Record<string, unknown> {
  const store = cloud.secretsManager;
  const ids = input.SecretIdList as string[] | undefined;
  const filters = input.Filters as { Key?: string; Values?: string[] }[] | undefined;
  if ((ids === undefined) === (filters === undefined)) throw invalidParameter('Either Filters or SecretIdList must be provided, but not both.');
  if (ids !== undefined) {
    if (ids.length < 1 || ids.length > 20) throw invalidParameter('SecretIdList must contain between 1 and 20 secret IDs.');
    if (input.MaxResults !== undefined || input.NextToken !== undefined) throw invalidParameter('MaxResults and NextToken can only be used with Filters.');
    const values: Record<string, unknown>[] = [];
    const errors: Record<string, unknown>[] = [];
    for (const id of ids) {
      try {
        values.push(valueRead(store.live(id, region)));
      } catch (error) {
        if (!(error instanceof AwsError)) throw error;
        errors.push({ SecretId: id, ErrorCode: error.code, Message: error.message });
      }
    }
    return { SecretValues: values, Errors: errors };
  }
  const size = input.MaxResults === undefined ? 20 : Number(input.MaxResults);
  if (!Number.isInteger(size) || size < 1 || size > 20) throw invalidParameter('MaxResults must be between 1 and 20.');
  const all = store.list(region).filter((secret) => secret.DeletedDate === undefined && matches(secret, filters ?? []));
  const start = typeof input.NextToken === 'string' ? Number(input.NextToken) : 0;
  if (!Number.isInteger(start) || start < 0 || start > all.length) throw new AwsError('InvalidNextTokenException', 'The NextToken value is invalid.');
  const page = all.slice(start, start + size);
  const values: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  for (const secret of page) {
    if (secret.Versions.some((version) => version.VersionStages.includes('AWSCURRENT'))) values.push(valueRead(secret));
    else errors.push({ SecretId: secret.ARN, ErrorCode: 'ResourceNotFoundException', Message: "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT" });
  }
  return { SecretValues: values, Errors: errors, NextToken: start + size < all.length ? String(start + size) : undefined };
}

/** AWS Secrets Manager (JSON 1.1, `X-Amz-Target: secretsmanager.<Operation>`). */
export function secretsManagerApi(cloud: LocalServices, operation: string, input: Record<string, unknown>, region: string): LocalResponse {
  const store = cloud.secretsManager;
  const respond = (body: Record<string, unknown>) => jsonResponse(body, 200, JSON_11);
  switch (operation) {
    case 'CreateSecret': {
      if (typeof input.Name !== 'string' || input.Name === '') throw invalidParameter('You must provide a Name.');
      const value = valueOf(input);
      const secret = store.create(
        { Name: input.Name, Description: input.Description as string | undefined, KmsKeyId: input.KmsKeyId as string | undefined, Tags: input.Tags as Secret['Tags'] | undefined, value, versionId: input.ClientRequestToken as string | undefined },
        region,
        cloud.accountId,
      );
      return respond({ ARN: secret.ARN, Name: secret.Name, VersionId: secret.Versions[0]?.VersionId });
    }
    case 'GetSecretValue': {
      const secret = store.live(secretId(input), region);
      return respond(valueRead(secret, input.VersionId as string | undefined, input.VersionStage as string | undefined));
    }
    case 'BatchGetSecretValue':
      return respond(batchGetSecretValue(cloud, input, region));
    case 'PutResourcePolicy': {
      const secret = store.live(secretId(input), region);
      const statements = policyStatements(input.ResourcePolicy);
      if (input.BlockPublicPolicy === true && allowsPublicAccess(statements)) throw new AwsError('PublicPolicyException', 'This resource policy will grant public access to the secret. Remove the public access or set BlockPublicPolicy to false.');
      store.setPolicy(secret, input.ResourcePolicy as string);
      return respond({ ARN: secret.ARN, Name: secret.Name });
    }
    case 'GetResourcePolicy': {
      const secret = store.get(secretId(input), region);
      return respond({ ARN: secret.ARN, Name: secret.Name, ResourcePolicy: secret.ResourcePolicy });
    }
    case 'DeleteResourcePolicy': {
      const secret = store.live(secretId(input), region);
      store.setPolicy(secret, undefined);
      return respond({ ARN: secret.ARN, Name: secret.Name });
    }
    case 'ValidateResourcePolicy': {
      if (input.SecretId !== undefined) store.get(secretId(input), region);
      const publicAccess = allowsPublicAccess(policyStatements(input.ResourcePolicy));
      const errors = publicAccess ? [{ CheckName: 'BLOCK_PUBLIC_POLICY', ErrorMessage: 'This resource policy grants access to every principal (Principal "*" without a Condition).' }] : [];
      return respond({ PolicyValidationPassed: !publicAccess, ValidationErrors: errors });
    }
    case 'PutSecretValue': {
      const secret = store.live(secretId(input), region);
      const value = valueOf(input);
      if (!value) throw invalidParameter('You must provide either SecretString or SecretBinary.');
      const version = store.putValue(secret, value, input.ClientRequestToken as string | undefined, input.VersionStages as string[] | undefined);
      return respond({ ARN: secret.ARN, Name: secret.Name, VersionId: version.VersionId, VersionStages: version.VersionStages });
    }
    case 'UpdateSecret': {
      const secret = store.live(secretId(input), region);
      const value = valueOf(input);
      store.update(secret, { Description: input.Description as string | undefined, KmsKeyId: input.KmsKeyId as string | undefined });
      const version = value ? store.putValue(secret, value, input.ClientRequestToken as string | undefined) : undefined;
      return respond({ ARN: secret.ARN, Name: secret.Name, VersionId: version?.VersionId });
    }
    case 'DescribeSecret': {
      const secret = store.get(secretId(input), region);
      return respond({ ...described(secret), VersionIdsToStages: versionsToStages(secret) });
    }
    case 'ListSecrets': {
      const includeDeleted = input.IncludePlannedDeletion === true;
      const filters = (input.Filters as { Key?: string; Values?: string[] }[] | undefined) ?? [];
      const all = store.list(region).filter((secret) => (includeDeleted || secret.DeletedDate === undefined) && matches(secret, filters));
      if (input.SortOrder === 'desc') all.reverse();
      const start = typeof input.NextToken === 'string' ? Number(input.NextToken) : 0;
      if (!Number.isInteger(start) || start < 0) throw new AwsError('InvalidNextTokenException', 'The NextToken value is invalid.');
      const size = typeof input.MaxResults === 'number' ? input.MaxResults : 100;
      const page = all.slice(start, start + size);
      const next = start + size < all.length ? String(start + size) : undefined;
      return respond({ SecretList: page.map((secret) => ({ ...described(secret), SecretVersionsToStages: versionsToStages(secret) })), NextToken: next });
    }
    case 'DeleteSecret': {
      const force = input.ForceDeleteWithoutRecovery === true;
      const id = secretId(input);
      // Forcing the deletion of a secret that is not there (any more) succeeds, as AWS documents.
      if (force && input.RecoveryWindowInDays === undefined && !store.find(id, region)) return respond({ ...(id.startsWith('arn:') ? { ARN: id } : { Name: id }), DeletionDate: Date.now() / 1000 });
      const secret = store.get(id, region);
      if (force && input.RecoveryWindowInDays !== undefined) throw invalidParameter("You can't use ForceDeleteWithoutRecovery in conjunction with RecoveryWindowInDays.");
      const window = force ? 0 : Number(input.RecoveryWindowInDays ?? 30);
      if (!force && (!Number.isInteger(window) || window < 7 || window > 30)) throw invalidParameter('The RecoveryWindowInDays value must be between 7 and 30 days (inclusive).');
      if (secret.DeletedDate !== undefined && !force) throw new AwsError('InvalidRequestException', "You can't perform this operation on the secret because it was already scheduled for deletion.");
      const deletionDate = store.delete(secret, window);
      return respond({ ARN: secret.ARN, Name: secret.Name, DeletionDate: deletionDate });
    }
    case 'RestoreSecret': {
      const secret = store.get(secretId(input), region);
      store.restore(secret);
      return respond({ ARN: secret.ARN, Name: secret.Name });
    }
    case 'TagResource': {
      const secret = store.live(secretId(input), region);
      store.retag(secret, tagMap(input.Tags), []);
      return respond({});
    }
    case 'UntagResource': {
      const secret = store.live(secretId(input), region);
      store.retag(secret, {}, Array.isArray(input.TagKeys) ? input.TagKeys.map(String) : []);
      return respond({});
    }
    case 'GetRandomPassword':
      return respond({ RandomPassword: randomPassword(input as PasswordOptions) });
    default:
      throw new AwsError('UnknownOperationException', `not emulated: Secrets Manager ${operation}`);
  }
}
