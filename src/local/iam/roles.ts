import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';
import { readJson, writeJsonAtomic } from '../state/files';
import { iamId, policyArn, policyDocument } from './documents';
import { IAM_USER_AND_POLICY_ACTIONS, UsersAndPolicies } from './users-and-policies';

/**
 * IAM roles as the query API (version 2010-05-08) describes them: what functions' tests and
 * custom flows create, read and remove (CreateRole, GetRole, inline and attached policies,
 * DeleteRole). Nothing is enforced: the local cloud runs every call as the one local account,
 * so a role is a record with AWS's shapes and errors. Roles a stack declares are read here
 * too, and changed by their stack only.
 */

interface Role {
  Path: string;
  RoleName: string;
  RoleId: string;
  Arn: string;
  CreateDate: string;
  /** The policy document as given (JSON); answers carry it URL-encoded, as IAM does. */
  AssumeRolePolicyDocument: string;
  Description?: string;
  MaxSessionDuration: number;
  Tags: { Key: string; Value: string }[];
  InlinePolicies: Record<string, string>;
  AttachedPolicyArns: string[];
}

/** A role a stack declares, as its record holds it. */
export interface StackRole {
  name: string;
  stackName: string;
  attributes: Record<string, unknown>;
  properties: Record<string, unknown>;
}


const noSuchRole = (name: string) => new AwsError('NoSuchEntity', `The role with name ${name} cannot be found.`, 404);
const validation = (value: string, member: string, constraint: string) =>
  new AwsError('ValidationError', `1 validation error detected: Value '${value}' at '${member}' failed to satisfy constraint: ${constraint}`);


function roleName(params: QueryParams): string {
  const name = params.required('RoleName');
  if (name.length > 64) throw validation(name, 'roleName', 'Member must have length less than or equal to 64');
  if (!/^[\w+=,.@-]+$/.test(name)) throw validation(name, 'roleName', 'Member must satisfy regular expression pattern: [\\w+=,.@-]+');
  return name;
}


/** The role as GetRole, CreateRole and ListRoles answer it. */
function described(role: Role): Record<string, unknown> {
  return {
    Path: role.Path,
    RoleName: role.RoleName,
    RoleId: role.RoleId,
    Arn: role.Arn,
    CreateDate: role.CreateDate,
    AssumeRolePolicyDocument: encodeURIComponent(role.AssumeRolePolicyDocument),
    Description: role.Description,
    MaxSessionDuration: role.MaxSessionDuration,
    Tags: role.Tags.length > 0 ? role.Tags : undefined,
  };
}

function fromStack(stack: StackRole): Role {
  const properties = stack.properties;
  const policies = Array.isArray(properties.Policies) ? (properties.Policies as { PolicyName?: string; PolicyDocument?: unknown }[]) : [];
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? {}));
  return {
    Path: typeof properties.Path === 'string' ? properties.Path : '/',
    RoleName: stack.name,
    RoleId: String(stack.attributes.RoleId ?? ''),
    Arn: String(stack.attributes.Arn ?? ''),
    CreateDate: new Date(0).toISOString(),
    AssumeRolePolicyDocument: text(properties.AssumeRolePolicyDocument),
    Description: typeof properties.Description === 'string' ? properties.Description : undefined,
    MaxSessionDuration: Number(properties.MaxSessionDuration ?? 3600),
    Tags: Array.isArray(properties.Tags) ? (properties.Tags as Role['Tags']) : [],
    InlinePolicies: Object.fromEntries(policies.map((policy) => [String(policy.PolicyName), text(policy.PolicyDocument)])),
    AttachedPolicyArns: Array.isArray(properties.ManagedPolicyArns) ? (properties.ManagedPolicyArns as string[]) : [],
  };
}

export class RoleStore {
  private readonly file: string;
  private readonly roles: Record<string, Role>;

  private readonly usersAndPolicies: UsersAndPolicies;

  constructor(dataDir: string) {
    this.usersAndPolicies = new UsersAndPolicies(dataDir);
    this.file = join(dataDir, 'state', 'iam-roles.json');
    this.roles = readJson<Record<string, Role>>(this.file, {});
  }

  private save(): void {
    writeJsonAtomic(this.file, this.roles);
  }

  /** IAM's query actions on roles; `stackRoles` are the roles stacks declare. */
  action(params: QueryParams, accountId: string, stackRoles: StackRole[]): Record<string, unknown> {
    const stackRole = (name: string) => stackRoles.find((role) => role.name === name);
    const find = (name: string): Role => {
      const role = this.roles[name] ?? (stackRole(name) ? fromStack(stackRole(name)!) : undefined);
      if (!role) throw noSuchRole(name);
      return role;
    };
    /** A role this API may change: one it created (a stack's role changes with its stack). */
    const own = (name: string): Role => {
      const declared = stackRole(name);
      if (!this.roles[name] && declared) {
        throw new AwsError('UnmodifiableEntity', `not emulated: IAM ${params.action} of role ${name}, which stack ${declared.stackName} declares (change it in the stack's template)`);
      }
      return find(name);
    };
    switch (params.action) {
      case 'CreateRole': {
        const name = roleName(params);
        if (this.roles[name] || stackRole(name)) throw new AwsError('EntityAlreadyExists', `Role with name ${name} already exists.`, 409);
        const path = params.string('Path') ?? '/';
        if (!/^\/([\x21-\x7e]*\/)?$/.test(path)) throw validation(path, 'path', 'Member must satisfy regular expression pattern: (\\u002F)|(\\u002F[\\u0021-\\u007E]+\\u002F)');
        const maxSession = params.number('MaxSessionDuration') ?? 3600;
        if (!Number.isInteger(maxSession) || maxSession < 3600 || maxSession > 43200) throw validation(String(maxSession), 'maxSessionDuration', 'Member must have value between 3600 and 43200');
        const role: Role = {
          Path: path,
          RoleName: name,
          RoleId: iamId('AROA'),
          Arn: `arn:aws:iam::${accountId}:role${path}${name}`,
          CreateDate: new Date().toISOString(),
          AssumeRolePolicyDocument: policyDocument(params.required('AssumeRolePolicyDocument')),
          Description: params.string('Description'),
          MaxSessionDuration: maxSession,
          Tags: params.structs('Tags').map((tag) => ({ Key: tag.Key, Value: tag.Value ?? '' })),
          InlinePolicies: {},
          AttachedPolicyArns: [],
        };
        this.roles[name] = role;
        this.save();
        return { Role: described(role) };
      }
      case 'GetRole':
        return { Role: described(find(roleName(params))) };
      case 'ListRoles': {
        const prefix = params.string('PathPrefix') ?? '/';
        const names = [...new Set([...Object.keys(this.roles), ...stackRoles.map((role) => role.name)])].sort();
        const all = names.map(find).filter((role) => role.Path.startsWith(prefix));
        return page(all.map(described), params, 'Roles');
      }
      case 'UpdateAssumeRolePolicy': {
        const role = own(roleName(params));
        role.AssumeRolePolicyDocument = policyDocument(params.required('PolicyDocument'));
        this.save();
        return {};
      }
      case 'UpdateRole': {
        const role = own(roleName(params));
        role.Description = params.string('Description') ?? role.Description;
        role.MaxSessionDuration = params.number('MaxSessionDuration') ?? role.MaxSessionDuration;
        this.save();
        return {};
      }
      case 'DeleteRole': {
        const name = roleName(params);
        const role = own(name);
        if (Object.keys(role.InlinePolicies).length > 0) throw new AwsError('DeleteConflict', 'Cannot delete entity, must delete policies first.', 409);
        if (role.AttachedPolicyArns.length > 0) throw new AwsError('DeleteConflict', 'Cannot delete entity, must detach all policies first.', 409);
        delete this.roles[name];
        this.save();
        return {};
      }
      case 'PutRolePolicy': {
        const role = own(roleName(params));
        role.InlinePolicies[params.required('PolicyName')] = policyDocument(params.required('PolicyDocument'));
        this.save();
        return {};
      }
      case 'GetRolePolicy': {
        const role = find(roleName(params));
        const policyName = params.required('PolicyName');
        const document = role.InlinePolicies[policyName];
        if (document === undefined) throw new AwsError('NoSuchEntity', `The role policy with name ${policyName} cannot be found.`, 404);
        return { RoleName: role.RoleName, PolicyName: policyName, PolicyDocument: encodeURIComponent(document) };
      }
      case 'DeleteRolePolicy': {
        const role = own(roleName(params));
        const policyName = params.required('PolicyName');
        if (role.InlinePolicies[policyName] === undefined) throw new AwsError('NoSuchEntity', `The role policy with name ${policyName} cannot be found.`, 404);
        delete role.InlinePolicies[policyName];
        this.save();
        return {};
      }
      case 'ListRolePolicies':
        return page(Object.keys(find(roleName(params)).InlinePolicies).sort(), params, 'PolicyNames');
      case 'AttachRolePolicy': {
        const role = own(roleName(params));
        const arn = policyArn(params);
        if (!role.AttachedPolicyArns.includes(arn)) role.AttachedPolicyArns.push(arn);
        this.save();
        return {};
      }
      case 'DetachRolePolicy': {
        const role = own(roleName(params));
        const arn = policyArn(params);
        if (!role.AttachedPolicyArns.includes(arn)) throw new AwsError('NoSuchEntity', `Policy ${arn} was not found.`, 404);
        role.AttachedPolicyArns = role.AttachedPolicyArns.filter((attached) => attached !== arn);
        this.save();
        return {};
      }
      case 'ListAttachedRolePolicies': {
        const attached = find(roleName(params)).AttachedPolicyArns.map((arn) => ({ PolicyName: arn.split('/').at(-1), PolicyArn: arn }));
        return page(attached, params, 'AttachedPolicies');
      }
      default: {
        const other = this.usersAndPolicies.action(params, accountId, (items, name) => page(items, params, name));
        if (other) return other;
        throw new AwsError('InvalidAction', `not emulated: IAM ${params.action} (the local cloud serves IAM roles, users, access keys and managed policies: ${[...IAM_ACTIONS, ...IAM_USER_AND_POLICY_ACTIONS].sort().join(', ')})`);
      }
    }
  }
}

/** The actions served (the coverage page lists them). */
export const IAM_ACTIONS = [
  'AttachRolePolicy',
  'CreateRole',
  'DeleteRole',
  'DeleteRolePolicy',
  'DetachRolePolicy',
  'GetRole',
  'GetRolePolicy',
  'ListAttachedRolePolicies',
  'ListRolePolicies',
  'ListRoles',
  'PutRolePolicy',
  'UpdateAssumeRolePolicy',
  'UpdateRole',
];

/** IAM's paging: MaxItems (default 100) and Marker, IsTruncated. */
function page(items: unknown[], params: QueryParams, name: string): Record<string, unknown> {
  const max = params.number('MaxItems') ?? 100;
  const start = Number(params.string('Marker') ?? 0) || 0;
  const slice = items.slice(start, start + max);
  const truncated = start + max < items.length;
  return { [name]: slice, IsTruncated: truncated, ...(truncated ? { Marker: String(start + max) } : {}) };
}
