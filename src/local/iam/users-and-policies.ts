import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AwsError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';
import { readJson, writeJsonAtomic } from '../state/files';
import { iamId, policyArn, policyDocument } from './documents';

/**
 * IAM users, their access keys and attached policies, and customer managed policies, as the query
 * API describes them: what test set-ups and scripts create, read and remove. Records with AWS's
 * shapes and errors; nothing is enforced (every call runs as the one local account), and an access
 * key made here signs calls as any key does.
 */

interface User {
  Path: string;
  UserName: string;
  UserId: string;
  Arn: string;
  CreateDate: string;
  Tags: { Key: string; Value: string }[];
  AttachedPolicyArns: string[];
}

interface AccessKey {
  UserName: string;
  AccessKeyId: string;
  Status: 'Active' | 'Inactive';
  CreateDate: string;
}

interface Policy {
  PolicyName: string;
  PolicyId: string;
  Arn: string;
  Path: string;
  Description?: string;
  /** As given (JSON); GetPolicyVersion answers it URL-encoded, as IAM does. */
  Document: string;
  CreateDate: string;
  Tags: { Key: string; Value: string }[];
}

interface State {
  users: Record<string, User>;
  accessKeys: Record<string, AccessKey>;
  policies: Record<string, Policy>;
}


const noSuchUser = (name: string) => new AwsError('NoSuchEntity', `The user with name ${name} cannot be found.`, 404);
const noSuchPolicy = (arn: string) => new AwsError('NoSuchEntity', `Policy ${arn} does not exist or is not attachable.`, 404);

/** The actions served (the coverage page lists them). */
export const IAM_USER_AND_POLICY_ACTIONS = [
  'AttachUserPolicy',
  'CreateAccessKey',
  'CreatePolicy',
  'CreateUser',
  'DeleteAccessKey',
  'DeletePolicy',
  'DeleteUser',
  'DetachUserPolicy',
  'GetPolicy',
  'GetPolicyVersion',
  'GetUser',
  'ListAccessKeys',
  'ListAttachedUserPolicies',
  'ListPolicies',
  'ListUsers',
  'UpdateAccessKey',
];

function tagsOf(params: QueryParams): { Key: string; Value: string }[] {
  const tags: { Key: string; Value: string }[] = [];
  for (let index = 1; params.string(`Tags.member.${index}.Key`) !== undefined; index++) {
    tags.push({ Key: params.string(`Tags.member.${index}.Key`)!, Value: params.string(`Tags.member.${index}.Value`) ?? '' });
  }
  return tags;
}

function path(params: QueryParams): string {
  const value = params.string('Path') ?? '/';
  if (!/^\/([\x21-\x7e]*\/)?$/.test(value)) throw new AwsError('ValidationError', `1 validation error detected: Value '${value}' at 'path' failed to satisfy constraint: Member must satisfy regular expression pattern: (\\u002F)|(\\u002F[\\u0021-\\u007E]+\\u002F)`);
  return value;
}

function name(params: QueryParams, parameter: 'UserName' | 'PolicyName', member: string): string {
  const value = params.required(parameter);
  if (value.length > 128 || !/^[\w+=,.@-]+$/.test(value)) throw new AwsError('ValidationError', `1 validation error detected: Value '${value}' at '${member}' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]+`);
  return value;
}

export class UsersAndPolicies {
  private readonly file: string;
  private readonly state: State;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'state', 'iam-users-and-policies.json');
    this.state = { users: {}, accessKeys: {}, policies: {}, ...readJson<Partial<State>>(this.file, {}) };
  }

  private save(): void {
    writeJsonAtomic(this.file, this.state);
  }

  private user(userName: string): User {
    const found = this.state.users[userName];
    if (!found) throw noSuchUser(userName);
    return found;
  }

  private policy(arn: string): Policy {
    const found = this.state.policies[arn];
    if (!found) throw noSuchPolicy(arn);
    return found;
  }

  private describedPolicy(policy: Policy): Record<string, unknown> {
    const attachments = Object.values(this.state.users).filter((user) => user.AttachedPolicyArns.includes(policy.Arn)).length;
    return {
      PolicyName: policy.PolicyName,
      PolicyId: policy.PolicyId,
      Arn: policy.Arn,
      Path: policy.Path,
      DefaultVersionId: 'v1',
      AttachmentCount: attachments,
      PermissionsBoundaryUsageCount: 0,
      IsAttachable: true,
      Description: policy.Description,
      CreateDate: policy.CreateDate,
      UpdateDate: policy.CreateDate,
      Tags: policy.Tags.length > 0 ? policy.Tags : undefined,
    };
  }

  /** The answer to an action on users, access keys or managed policies, or undefined for another action. */
  action(params: QueryParams, accountId: string, page: (items: unknown[], name: string) => Record<string, unknown>): Record<string, unknown> | undefined {
    const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    switch (params.action) {
      case 'CreateUser': {
        const userName = name(params, 'UserName', 'userName');
        if (Object.keys(this.state.users).some((existing) => existing.toLowerCase() === userName.toLowerCase())) throw new AwsError('EntityAlreadyExists', `User with name ${userName} already exists.`, 409);
        const userPath = path(params);
        const user: User = { Path: userPath, UserName: userName, UserId: iamId('AIDA'), Arn: `arn:aws:iam::${accountId}:user${userPath}${userName}`, CreateDate: now(), Tags: tagsOf(params), AttachedPolicyArns: [] };
        this.state.users[userName] = user;
        this.save();
        return { User: described(user) };
      }
      case 'GetUser': {
        const userName = params.string('UserName');
        // Without a name, the caller: the local cloud's one account, as its root user.
        if (userName === undefined) return { User: { UserId: accountId, Arn: `arn:aws:iam::${accountId}:root`, CreateDate: new Date(0).toISOString().replace(/\.\d+Z$/, 'Z') } };
        return { User: described(this.user(userName)) };
      }
      case 'ListUsers': {
        const prefix = params.string('PathPrefix') ?? '/';
        return page(Object.values(this.state.users).filter((user) => user.Path.startsWith(prefix)).sort((a, b) => (a.UserName < b.UserName ? -1 : 1)).map(described), 'Users');
      }
      case 'DeleteUser': {
        const user = this.user(params.required('UserName'));
        const keys = Object.values(this.state.accessKeys).some((key) => key.UserName === user.UserName);
        if (keys || user.AttachedPolicyArns.length > 0) throw new AwsError('DeleteConflict', 'Cannot delete entity, must delete access keys and detach policies first.', 409);
        delete this.state.users[user.UserName];
        this.save();
        return {};
      }
      case 'CreateAccessKey': {
        const user = this.user(params.required('UserName'));
        if (Object.values(this.state.accessKeys).filter((key) => key.UserName === user.UserName).length >= 2) throw new AwsError('LimitExceeded', 'Cannot exceed quota for AccessKeysPerUser: 2', 409);
        const key: AccessKey = { UserName: user.UserName, AccessKeyId: iamId('AKIA', 16), Status: 'Active', CreateDate: now() };
        this.state.accessKeys[key.AccessKeyId] = key;
        this.save();
        return { AccessKey: { ...key, SecretAccessKey: randomBytes(30).toString('base64').slice(0, 40) } };
      }
      case 'ListAccessKeys': {
        const user = this.user(params.required('UserName'));
        return page(Object.values(this.state.accessKeys).filter((key) => key.UserName === user.UserName), 'AccessKeyMetadata');
      }
      case 'UpdateAccessKey':
      case 'DeleteAccessKey': {
        const keyId = params.required('AccessKeyId');
        const key = this.state.accessKeys[keyId];
        const userName = params.string('UserName');
        if (!key || (userName !== undefined && key.UserName !== userName)) throw new AwsError('NoSuchEntity', `The Access Key with id ${keyId} cannot be found.`, 404);
        if (params.action === 'DeleteAccessKey') delete this.state.accessKeys[keyId];
        else {
          const status = params.required('Status');
          if (status !== 'Active' && status !== 'Inactive') throw new AwsError('ValidationError', `1 validation error detected: Value '${status}' at 'status' failed to satisfy constraint: Member must satisfy enum value set: [Active, Inactive]`);
          key.Status = status;
        }
        this.save();
        return {};
      }
      case 'AttachUserPolicy':
      case 'DetachUserPolicy': {
        const user = this.user(params.required('UserName'));
        const arn = policyArn(params);
        if (params.action === 'AttachUserPolicy') {
          if (!arn.includes(':iam::aws:')) this.policy(arn);
          if (!user.AttachedPolicyArns.includes(arn)) user.AttachedPolicyArns.push(arn);
        } else {
          if (!user.AttachedPolicyArns.includes(arn)) throw new AwsError('NoSuchEntity', `Policy ${arn} was not found.`, 404);
          user.AttachedPolicyArns = user.AttachedPolicyArns.filter((attached) => attached !== arn);
        }
        this.save();
        return {};
      }
      case 'ListAttachedUserPolicies':
        return page(this.user(params.required('UserName')).AttachedPolicyArns.map((arn) => ({ PolicyName: arn.split('/').at(-1), PolicyArn: arn })), 'AttachedPolicies');
      case 'CreatePolicy': {
        const policyName = name(params, 'PolicyName', 'policyName');
        const policyPath = path(params);
        const arn = `arn:aws:iam::${accountId}:policy${policyPath}${policyName}`;
        if (this.state.policies[arn]) throw new AwsError('EntityAlreadyExists', `A policy called ${policyName} already exists. Duplicate names are not allowed.`, 409);
        const document = policyDocument(params.required('PolicyDocument'));
        const policy: Policy = { PolicyName: policyName, PolicyId: iamId('ANPA'), Arn: arn, Path: policyPath, Description: params.string('Description'), Document: document, CreateDate: now(), Tags: tagsOf(params) };
        this.state.policies[arn] = policy;
        this.save();
        return { Policy: this.describedPolicy(policy) };
      }
      case 'GetPolicy':
        return { Policy: this.describedPolicy(this.policy(params.required('PolicyArn'))) };
      case 'GetPolicyVersion': {
        const policy = this.policy(params.required('PolicyArn'));
        const version = params.required('VersionId');
        if (version !== 'v1') throw new AwsError('NoSuchEntity', `Policy ${policy.Arn} version ${version} does not exist or is not attachable.`, 404);
        return { PolicyVersion: { Document: encodeURIComponent(policy.Document), VersionId: 'v1', IsDefaultVersion: true, CreateDate: policy.CreateDate } };
      }
      case 'ListPolicies': {
        // The local cloud holds no AWS managed policies: Scope AWS lists none.
        const scope = params.string('Scope') ?? 'All';
        const prefix = params.string('PathPrefix') ?? '/';
        const policies = scope === 'AWS' ? [] : Object.values(this.state.policies).filter((policy) => policy.Path.startsWith(prefix));
        return page(policies.sort((a, b) => (a.PolicyName < b.PolicyName ? -1 : 1)).map((policy) => this.describedPolicy(policy)), 'Policies');
      }
      case 'DeletePolicy': {
        const policy = this.policy(params.required('PolicyArn'));
        if (Object.values(this.state.users).some((user) => user.AttachedPolicyArns.includes(policy.Arn))) throw new AwsError('DeleteConflict', 'Cannot delete a policy attached to entities.', 409);
        delete this.state.policies[policy.Arn];
        this.save();
        return {};
      }
      default:
        return undefined;
    }
  }
}

function described(user: User): Record<string, unknown> {
  return { Path: user.Path, UserName: user.UserName, UserId: user.UserId, Arn: user.Arn, CreateDate: user.CreateDate, Tags: user.Tags.length > 0 ? user.Tags : undefined };
}
