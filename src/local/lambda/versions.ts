import { randomUUID } from 'node:crypto';
import { AwsError } from '../protocol/errors';
import type { ResourceRecord } from '../cloudformation/model';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { aliasesOf, setAliases, type FunctionAlias } from '../runtime/aliases';
import { publishedVersions, publishVersion } from '../runtime/code';
import type { LocalServices } from '../service-interfaces';
import { lambdaRequestBody } from './request-body';

/**
 * Lambda versions and aliases by API: PublishVersion, CreateAlias, GetAlias, UpdateAlias,
 * DeleteAlias, ListAliases. Versions and aliases are kept on the function (runtime/code.ts,
 * runtime/aliases.ts), so invoking `name:3` or `name:live` runs that version's code, whoever made
 * them: these calls or a stack's AWS::Lambda::Version / AWS::Lambda::Alias.
 */

const VERSIONS = /^\/2015-03-31\/functions\/([^/]+)\/versions\/?$/;
const ALIASES = /^\/2015-03-31\/functions\/([^/]+)\/aliases\/?([^/]*)\/?$/;


/** Persists a change to a function's record, wherever the record lives. */
export function functionChanged(cloud: LocalServices, record: ResourceRecord): void {
  if (cloud.apiResources.find(record.type, record.physicalId)) cloud.apiResources.changed(record);
  else cloud.stacks.save();
}

/** The version an alias may point at must exist: `$LATEST` or a published number. */
function checkVersion(record: ResourceRecord, version: unknown): string {
  const wanted = String(version ?? '');
  if (wanted === '$LATEST' || publishedVersions(record).some((published) => published.Version === wanted)) return wanted;
  throw new AwsError('ResourceNotFoundException', `Function not found: ${String(record.attributes.Arn)}:${wanted}`, 404);
}

function aliasNotFound(record: ResourceRecord, name: string): AwsError {
  return new AwsError('ResourceNotFoundException', `Alias not found: ${String(record.attributes.Arn)}:${name}`, 404);
}

/** Adds an alias to a function (CreateAlias, and the stacks' AWS::Lambda::Alias). */
export function createAlias(record: ResourceRecord, input: Record<string, unknown>): FunctionAlias {
  const name = String(input.Name ?? '');
  if (!/^(?!^[0-9]+$)[a-zA-Z0-9-_]+$/.test(name)) {
    throw new AwsError('ValidationException', `1 validation error detected: Value '${name}' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: (?!^[0-9]+$)([a-zA-Z0-9-_]+)`, 400);
  }
  const aliasArn = `${String(record.attributes.Arn)}:${name}`;
  if (aliasesOf(record).some((alias) => alias.Name === name)) throw new AwsError('ResourceConflictException', `Alias already exists: ${aliasArn}`, 409);
  const alias: FunctionAlias = { AliasArn: aliasArn, Name: name, FunctionVersion: checkVersion(record, input.FunctionVersion), Description: String(input.Description ?? ''), RevisionId: randomUUID() };
  if (input.RoutingConfig) alias.RoutingConfig = input.RoutingConfig as FunctionAlias['RoutingConfig'];
  setAliases(record, [...aliasesOf(record), alias]);
  return alias;
}

export function updateAlias(record: ResourceRecord, name: string, input: Record<string, unknown>): FunctionAlias {
  const current = aliasesOf(record).find((alias) => alias.Name === name);
  if (!current) throw aliasNotFound(record, name);
  if (input.RevisionId !== undefined && input.RevisionId !== current.RevisionId) {
    throw new AwsError('PreconditionFailedException', 'The Revision Id provided does not match the latest Revision Id. Call the GetAlias API to retrieve the latest Revision Id', 412);
  }
  const updated: FunctionAlias = {
    ...current,
    FunctionVersion: input.FunctionVersion === undefined ? current.FunctionVersion : checkVersion(record, input.FunctionVersion),
    Description: input.Description === undefined ? current.Description : String(input.Description),
    RevisionId: randomUUID(),
  };
  if (input.RoutingConfig !== undefined) updated.RoutingConfig = input.RoutingConfig as FunctionAlias['RoutingConfig'];
  setAliases(record, aliasesOf(record).map((alias) => (alias.Name === name ? updated : alias)));
  return updated;
}

export function deleteAlias(record: ResourceRecord, name: string): void {
  setAliases(record, aliasesOf(record).filter((alias) => alias.Name !== name));
}

/** The versions and aliases calls, or undefined for any other Lambda request. */
export function lambdaVersionsApi(cloud: LocalServices, request: LocalRequest, configuration: (record: ResourceRecord, version?: ReturnType<typeof publishedVersions>[number]) => Record<string, unknown>): LocalResponse | undefined {
  const versions = VERSIONS.exec(request.path);
  if (versions && request.method === 'POST') {
    const record = cloud.functions.record(decodeURIComponent(versions[1]));
    const input = lambdaRequestBody(request);
    if (input.CodeSha256 !== undefined && input.CodeSha256 !== record.attributes.CodeSha256) {
      throw new AwsError('InvalidParameterValueException', `CodeSHA256 (${String(input.CodeSha256)}) is different from current CodeSHA256 in $LATEST (${String(record.attributes.CodeSha256)}). Please try again with the CodeSHA256 in $LATEST.`, 400);
    }
    // Publishing unchanged code again returns the version that has it, as Lambda does.
    const last = publishedVersions(record).at(-1);
    const published = last && last.CodeSha256 === record.attributes.CodeSha256 ? last : publishVersion(cloud, record, (version) => `${String(record.attributes.Arn)}:${version}`);
    functionChanged(cloud, record);
    return jsonResponse({ ...configuration(record, published), Description: String(input.Description ?? '') }, 201);
  }
  const aliases = ALIASES.exec(request.path);
  if (!aliases) return undefined;
  const record = cloud.functions.record(decodeURIComponent(aliases[1]));
  const name = decodeURIComponent(aliases[2]);
  if (!name && request.method === 'POST') {
    const alias = createAlias(record, lambdaRequestBody(request));
    functionChanged(cloud, record);
    return jsonResponse(alias, 201);
  }
  if (!name && request.method === 'GET') {
    const version = request.search.get('FunctionVersion');
    return jsonResponse({ Aliases: aliasesOf(record).filter((alias) => version === null || alias.FunctionVersion === version) });
  }
  if (name && request.method === 'GET') {
    const alias = aliasesOf(record).find((candidate) => candidate.Name === name);
    if (!alias) throw aliasNotFound(record, name);
    return jsonResponse(alias);
  }
  if (name && request.method === 'PUT') {
    const alias = updateAlias(record, name, lambdaRequestBody(request));
    functionChanged(cloud, record);
    return jsonResponse(alias);
  }
  if (name && request.method === 'DELETE') {
    deleteAlias(record, name);
    functionChanged(cloud, record);
    return { status: 204 };
  }
  return undefined;
}
