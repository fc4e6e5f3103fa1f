/**
 * SQS AddPermission / RemovePermission: statements in the queue's `Policy` attribute, written as
 * SQS writes them (Sid = the label, principals as account root ARNs, actions as `SQS:<Action>`).
 */
import { AwsError } from '../protocol/errors';

interface Statement {
  Sid?: string;
  [key: string]: unknown;
}

interface Policy {
  Version: string;
  Id?: string;
  Statement: Statement[];
}

const invalidLabel = (label: unknown, reason: string) => new AwsError('InvalidParameterValue', `Value ${String(label)} for parameter Label is invalid. Reason: ${reason}`);

function parsed(policy: string | undefined): Policy | undefined {
  if (!policy) return undefined;
  const value = JSON.parse(policy) as Policy;
  return { ...value, Statement: Array.isArray(value.Statement) ? value.Statement : value.Statement ? [value.Statement] : [] };
}

const oneOrMany = <T>(items: T[]): T | T[] => (items.length === 1 ? items[0] : items);

function required(input: Record<string, unknown>, name: string): string[] {
  const value = input[name];
  if (!Array.isArray(value) || value.length === 0) throw new AwsError('MissingParameter', `The request must contain the parameter ${name}.`);
  return value.map(String);
}

/** The queue's Policy after AddPermission. */
export function policyWithPermission(policy: string | undefined, queueArn: string, input: Record<string, unknown>): string {
  const label = input.Label;
  if (typeof label !== 'string' || !/^[a-zA-Z0-9_-]{1,80}$/.test(label)) throw invalidLabel(label, 'Must be 1-80 characters of letters, digits, hyphens and underscores.');
  const accounts = required(input, 'AWSAccountIds');
  const actions = required(input, 'Actions');
  const current = parsed(policy) ?? { Version: '2012-10-17', Id: `${queueArn}/SQSDefaultPolicy`, Statement: [] };
  if (current.Statement.some((statement) => statement.Sid === label)) throw invalidLabel(label, 'Already exists.');
  current.Statement.push({
    Sid: label,
    Effect: 'Allow',
    Principal: { AWS: oneOrMany(accounts.map((account) => `arn:aws:iam::${account}:root`)) },
    Action: oneOrMany(actions.map((action) => (action === '*' ? 'SQS:*' : `SQS:${action}`))),
    Resource: queueArn,
  });
  return JSON.stringify(current);
}

/** The queue's Policy after RemovePermission: empty when its last statement goes. */
export function policyWithoutPermission(policy: string | undefined, label: unknown): string {
  const current = parsed(policy);
  if (!current?.Statement.some((statement) => statement.Sid === label)) throw invalidLabel(label, "can't find label on existing policy.");
  const statements = current.Statement.filter((statement) => statement.Sid !== label);
  return statements.length > 0 ? JSON.stringify({ ...current, Statement: statements }) : '';
}
