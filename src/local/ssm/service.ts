import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import { jsonResponse, type LocalResponse } from '../http';
import type { Parameter } from './parameters';

const JSON_11 = 'application/x-amz-json-1.1';

/** A parameter as GetParameter(s) return it: a SecureString's value is its ciphertext unless WithDecryption is true, as in AWS. */
function shape(cloud: LocalServices, parameter: Parameter, withDecryption: boolean): Record<string, unknown> {
  const name = parameter.Name.startsWith('/') ? parameter.Name.slice(1) : parameter.Name;
  const { Ciphertext: _ciphertext, ...fields } = parameter;
  return { ...fields, Value: cloud.ssm.valueAsRead(parameter, withDecryption), ARN: `arn:aws:ssm:us-east-1:${cloud.accountId}:parameter/${name}` };
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
      return { ...fields, LastModifiedUser: user, Tier: 'Standard', Labels: [], Policies: [] };
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

/** SSM Parameter Store (JSON 1.1): what `${ssm:…}` variables read. */
export function ssmApi(cloud: LocalServices, operation: string, input: Record<string, unknown>): LocalResponse {
  const withDecryption = input.WithDecryption === true;
  switch (operation) {
    case 'GetParameter': {
      const parameter = cloud.ssm.find(String(input.Name));
      if (!parameter) throw new AwsError('ParameterNotFound', `Parameter ${String(input.Name)} not found.`);
      return jsonResponse({ Parameter: shape(cloud, parameter, withDecryption) }, 200, JSON_11);
    }
    case 'GetParameters': {
      const names = (input.Names as string[] | undefined) ?? [];
      const found = names.map((name) => cloud.ssm.find(name)).filter((p): p is Parameter => p !== undefined);
      return jsonResponse({ Parameters: found.map((p) => shape(cloud, p, withDecryption)), InvalidParameters: names.filter((name) => !cloud.ssm.find(name)) }, 200, JSON_11);
    }
    case 'GetParametersByPath': {
      const found = cloud.ssm.byPath(String(input.Path ?? '/'), input.Recursive === true);
      return jsonResponse({ Parameters: found.map((p) => shape(cloud, p, withDecryption)) }, 200, JSON_11);
    }
    case 'PutParameter': {
      if (typeof input.Name !== 'string' || typeof input.Value !== 'string') {
        throw new AwsError('ValidationException', 'PutParameter needs a Name and a Value');
      }
      const parameter = cloud.ssm.put({ Name: input.Name, Value: input.Value, Type: input.Type as string | undefined, Overwrite: input.Overwrite === true, DataType: input.DataType as string | undefined });
      return jsonResponse({ Version: parameter.Version, Tier: 'Standard' }, 200, JSON_11);
    }
    case 'DeleteParameter': {
      if (!cloud.ssm.find(String(input.Name))) throw new AwsError('ParameterNotFound', '');
      cloud.ssm.delete(String(input.Name));
      return jsonResponse({}, 200, JSON_11);
    }
    case 'DeleteParameters': {
      const names = (input.Names as string[] | undefined) ?? [];
      if (names.length === 0) throw new AwsError('ValidationException', "1 validation error detected: Value '[]' at 'names' failed to satisfy constraint: Member must have length greater than or equal to 1");
      if (names.length > 10) throw new AwsError('ValidationException', `1 validation error detected: Value '[${names.join(', ')}]' at 'names' failed to satisfy constraint: Member must have length less than or equal to 10`);
      const deleted = names.filter((name) => cloud.ssm.find(name));
      for (const name of deleted) cloud.ssm.delete(name);
      return jsonResponse({ DeletedParameters: deleted, InvalidParameters: names.filter((name) => !deleted.includes(name)) }, 200, JSON_11);
    }
    case 'DescribeParameters':
      return jsonResponse(describeParameters(cloud, input), 200, JSON_11);
    case 'GetParameterHistory':
      return jsonResponse(parameterHistory(cloud, input, withDecryption), 200, JSON_11);
    default:
      throw new AwsError('UnknownOperationException', `not emulated: SSM ${operation}`);
  }
}
