import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import { jsonResponse, type LocalResponse } from '../http';
import type { Parameter } from './parameters';
import { tagList, tagMap } from '../state/resource-tags';

const JSON_11 = 'application/x-amz-json-1.1';

/** A parameter as GetParameter(s) return it: a SecureString's value is its ciphertext unless WithDecryption is true, as in AWS. */
function shape(cloud: LocalServices, parameter: Parameter, withDecryption: boolean, selector?: string): Record<string, unknown> {
  const { Ciphertext: _ciphertext, Labels: _labels, ...fields } = parameter;
  const read = { ...fields, Value: cloud.ssm.valueAsRead(parameter, withDecryption), ARN: parameterArn(cloud, parameter.Name) };
  return selector === undefined ? read : { ...read, Selector: selector };
}

function parameterArn(cloud: LocalServices, name: string): string {
  return `arn:aws:ssm:us-east-1:${cloud.accountId}:parameter/${name.startsWith('/') ? name.slice(1) : name}`;
}

/** A GetParameter(s) name with its `:version` or `:label` selector, if any. */
function selected(cloud: LocalServices, name: string): { parameter: Parameter; selector?: string } | undefined {
  const parameter = cloud.ssm.select(name);
  if (!parameter) return undefined;
  return { parameter, selector: name.length > parameter.Name.length ? name.slice(parameter.Name.length) : undefined };
}

/** The parameter a tagging call names: ResourceType `Parameter` and its name as ResourceId. */
function taggedParameter(cloud: LocalServices, input: Record<string, unknown>): string {
  if (input.ResourceType !== 'Parameter') throw new AwsError('InvalidResourceType', `not emulated: SSM tags on ResourceType ${String(input.ResourceType)} (the local cloud tags parameters)`);
  const name = String(input.ResourceId);
  if (!cloud.ssm.find(name)) throw new AwsError('InvalidResourceId', 'The resource ID is not valid. Verify that you entered the correct ID and try again.');
  return parameterArn(cloud, name);
}

/** AddTagsToResource: a resource has 50 tags at most, as in AWS. */
function addTags(cloud: LocalServices, arn: string, tags: unknown): void {
  const added = tagMap(tags);
  if (Object.keys({ ...cloud.tags.of(arn), ...added }).length > 50) throw new AwsError('TooManyTagsError', 'The Tags parameter contains more than the maximum allowed number of tags.');
  cloud.tags.tag(arn, added);
}

/** GetParameterHistory: every kept version, oldest first, 50 a page at most (MaxResults, NextToken). */
function parameterHistory(cloud: LocalServices, input: Record<string, unknown>, withDecryption: boolean): Record<string, unknown> {
  const name = String(input.Name);
  const maxResults = input.MaxResults === undefined ? 50 : Number(input.MaxResults);
  if (maxResults < 1) throw new AwsError('ValidationException', `1 validation error detected: Value '${maxResults}' at 'maxResults' failed to satisfy constraint: Member must have value greater than or equal to 1`);
  if (maxResults > 50) throw new AwsError('ValidationException', `1 validation error detected: Value '${maxResults}' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 50`);
  const versions = cloud.ssm.history(name);
  if (versions.length === 0) throw new AwsError('ParameterNotFound', '');
  let start = 0;
  if (input.NextToken !== undefined) {
    const token = /^v1:(\d+)$/.exec(Buffer.from(String(input.NextToken), 'base64url').toString('utf8'));
    if (!token || Number(token[1]) >= versions.length) throw new AwsError('InvalidNextToken', 'The specified token is not valid.');
    start = Number(token[1]);
  }
  const page = versions.slice(start, start + maxResults);
  const next = start + maxResults < versions.length ? Buffer.from(`v1:${start + maxResults}`).toString('base64url') : undefined;
  const user = `arn:aws:iam::${cloud.accountId}:user/local`;
  return {
    Parameters: page.map((parameter) => {
      const { ARN: _arn, ...fields } = shape(cloud, parameter, withDecryption);
      return { ...fields, LastModifiedUser: user, Tier: 'Standard', Labels: parameter.Labels ?? [], Policies: [] };
    }),
    NextToken: next,
  };
}

/**
 * DescribeParameters: every parameter's metadata (never its value), by name, 50 a page at most.
 * ParameterFilters `Name` (Equals, BeginsWith), `Path` (OneLevel, Recursive) and `Type` (Equals) are
 * applied; any other filter key is refused by name rather than ignored.
 */
function describeParameters(cloud: LocalServices, input: Record<string, unknown>): Record<string, unknown> {
  const maxResults = input.MaxResults === undefined ? 50 : Number(input.MaxResults);
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 50) throw new AwsError('ValidationException', `1 validation error detected: Value '${String(input.MaxResults)}' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 50`);
  const filters = (input.ParameterFilters as { Key?: string; Option?: string; Values?: string[] }[] | undefined) ?? [];
  let found = cloud.ssm.all();
  for (const { Key, Option = Key === 'Path' ? 'OneLevel' : 'Equals', Values = [] } of filters) {
    if (Key === 'Path') found = found.filter((parameter) => Values.some((path) => cloud.ssm.byPath(path, Option === 'Recursive').includes(parameter)));
    else if (Key === 'Name') found = found.filter((parameter) => Values.some((value) => (Option === 'BeginsWith' ? parameter.Name.startsWith(value) : parameter.Name === value)));
    else if (Key === 'Type') found = found.filter((parameter) => Values.includes(parameter.Type));
    else throw new AwsError('InvalidFilterKey', `not emulated: SSM DescribeParameters filter ${String(Key)} (the local cloud filters by Name, Path and Type)`);
  }
  found = found.sort((a, b) => (a.Name < b.Name ? -1 : 1));
  const start = input.NextToken === undefined ? 0 : Number(/^v1:(\d+)$/.exec(Buffer.from(String(input.NextToken), 'base64url').toString('utf8'))?.[1] ?? NaN);
  if (!Number.isInteger(start)) throw new AwsError('InvalidNextToken', 'The specified token is not valid.');
  const page = found.slice(start, start + maxResults);
  const next = start + maxResults < found.length ? Buffer.from(`v1:${start + maxResults}`).toString('base64url') : undefined;
  const user = `arn:aws:iam::${cloud.accountId}:user/local`;
  return {
    Parameters: page.map((parameter) => {
      const { ARN, Name, Type, Version, LastModifiedDate, DataType } = shape(cloud, parameter, false) as Record<string, unknown>;
      return { Name, ARN, Type, LastModifiedDate, LastModifiedUser: user, Version, Tier: 'Standard', Policies: [], DataType };
    }),
    NextToken: next,
  };
}

/** A (Un)LabelParameterVersion request's Labels: 1 to 10 of them, as AWS validates. */
function labelList(input: Record<string, unknown>): string[] {
  const labels = (input.Labels as string[] | undefined) ?? [];
  if (labels.length === 0) throw new AwsError('ValidationException', "1 validation error detected: Value '[]' at 'labels' failed to satisfy constraint: Member must have length greater than or equal to 1");
  if (labels.length > 10) throw new AwsError('ValidationException', `1 validation error detected: Value '[${labels.join(', ')}]' at 'labels' failed to satisfy constraint: Member must have length less than or equal to 10`);
  return labels;
}

/** SSM Parameter Store (JSON 1.1): what `${ssm:…}` variables read. */
export function ssmApi(cloud: LocalServices, operation: string, input: Record<string, unknown>): LocalResponse {
  const withDecryption = input.WithDecryption === true;
  switch (operation) {
    case 'GetParameter': {
      const found = selected(cloud, String(input.Name));
      if (!found) throw new AwsError('ParameterNotFound', `Parameter ${String(input.Name)} not found.`);
      return jsonResponse({ Parameter: shape(cloud, found.parameter, withDecryption, found.selector) }, 200, JSON_11);
    }
    case 'GetParameters': {
      const names = (input.Names as string[] | undefined) ?? [];
      const found = names.map((name) => selected(cloud, name)).filter((p) => p !== undefined);
      return jsonResponse({ Parameters: found.map((p) => shape(cloud, p.parameter, withDecryption, p.selector)), InvalidParameters: names.filter((name) => !cloud.ssm.select(name)) }, 200, JSON_11);
    }
    case 'GetParametersByPath': {
      const found = cloud.ssm.byPath(String(input.Path ?? '/'), input.Recursive === true);
      return jsonResponse({ Parameters: found.map((p) => shape(cloud, p, withDecryption)) }, 200, JSON_11);
    }
    case 'PutParameter': {
      if (typeof input.Name !== 'string' || typeof input.Value !== 'string') {
        throw new AwsError('ValidationException', 'PutParameter needs a Name and a Value');
      }
      if (input.Tags !== undefined && input.Overwrite === true) throw new AwsError('ValidationException', "Invalid request: tags and overwrite can't be used together. To create a parameter with tags, please remove overwrite flag. To update tags for an existing parameter, please use AddTagsToResource or RemoveTagsFromResource.");
      const parameter = cloud.ssm.put({ Name: input.Name, Value: input.Value, Type: input.Type as string | undefined, Overwrite: input.Overwrite === true, DataType: input.DataType as string | undefined });
      if (input.Tags !== undefined) addTags(cloud, parameterArn(cloud, input.Name), input.Tags);
      return jsonResponse({ Version: parameter.Version, Tier: 'Standard' }, 200, JSON_11);
    }
    case 'DeleteParameter': {
      if (!cloud.ssm.find(String(input.Name))) throw new AwsError('ParameterNotFound', '');
      cloud.ssm.delete(String(input.Name));
      cloud.tags.forget(parameterArn(cloud, String(input.Name)));
      return jsonResponse({}, 200, JSON_11);
    }
    case 'DeleteParameters': {
      const names = (input.Names as string[] | undefined) ?? [];
      if (names.length === 0) throw new AwsError('ValidationException', "1 validation error detected: Value '[]' at 'names' failed to satisfy constraint: Member must have length greater than or equal to 1");
      if (names.length > 10) throw new AwsError('ValidationException', `1 validation error detected: Value '[${names.join(', ')}]' at 'names' failed to satisfy constraint: Member must have length less than or equal to 10`);
      const deleted = names.filter((name) => cloud.ssm.find(name));
      for (const name of deleted) {
        cloud.ssm.delete(name);
        cloud.tags.forget(parameterArn(cloud, name));
      }
      return jsonResponse({ DeletedParameters: deleted, InvalidParameters: names.filter((name) => !deleted.includes(name)) }, 200, JSON_11);
    }
    case 'DescribeParameters':
      return jsonResponse(describeParameters(cloud, input), 200, JSON_11);
    case 'GetParameterHistory':
      return jsonResponse(parameterHistory(cloud, input, withDecryption), 200, JSON_11);
    case 'LabelParameterVersion': {
      const labels = labelList(input);
      const { version, invalid } = cloud.ssm.label(String(input.Name), input.ParameterVersion === undefined ? undefined : Number(input.ParameterVersion), labels);
      return jsonResponse({ InvalidLabels: invalid, ParameterVersion: version }, 200, JSON_11);
    }
    case 'UnlabelParameterVersion': {
      const labels = labelList(input);
      if (input.ParameterVersion === undefined) throw new AwsError('ValidationException', "1 validation error detected: Value null at 'parameterVersion' failed to satisfy constraint: Member must not be null");
      const { removed, invalid } = cloud.ssm.unlabel(String(input.Name), Number(input.ParameterVersion), labels);
      return jsonResponse({ RemovedLabels: removed, InvalidLabels: invalid }, 200, JSON_11);
    }
    case 'AddTagsToResource':
      addTags(cloud, taggedParameter(cloud, input), input.Tags);
      return jsonResponse({}, 200, JSON_11);
    case 'RemoveTagsFromResource':
      cloud.tags.untag(taggedParameter(cloud, input), (input.TagKeys as string[] | undefined) ?? []);
      return jsonResponse({}, 200, JSON_11);
    case 'ListTagsForResource':
      return jsonResponse({ TagList: tagList(cloud.tags.of(taggedParameter(cloud, input))) }, 200, JSON_11);
    default:
      throw new AwsError('UnknownOperationException', `not emulated: SSM ${operation}`);
  }
}
