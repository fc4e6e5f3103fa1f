import { AwsError } from '../protocol/errors';

interface Statement {
  Effect?: unknown;
  Principal?: unknown;
  NotPrincipal?: unknown;
  Action?: unknown;
  NotAction?: unknown;
  Condition?: unknown;
}

const malformed = (reason: string) => new AwsError('MalformedPolicyDocumentException', `This resource policy contains a syntax error: ${reason}`);

/** A resource policy's statements, or MalformedPolicyDocumentException when it is not a policy document. */
export function policyStatements(policy: unknown): Statement[] {
  if (typeof policy !== 'string' || policy === '') throw new AwsError('InvalidParameterException', 'You must provide a ResourcePolicy.');
  let document: unknown;
  try {
    document = JSON.parse(policy);
  } catch {
    throw malformed('the document is not valid JSON.');
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw malformed('the document is not a JSON object.');
  const statement = (document as { Statement?: unknown }).Statement;
  if (statement === undefined) throw malformed('the document has no Statement.');
  const statements = (Array.isArray(statement) ? statement : [statement]) as Statement[];
  for (const one of statements) {
    if (!one || typeof one !== 'object') throw malformed('a Statement is not an object.');
    if (one.Effect !== 'Allow' && one.Effect !== 'Deny') throw malformed(`Effect must be Allow or Deny, got ${JSON.stringify(one.Effect)}.`);
    if (one.Action === undefined && one.NotAction === undefined) throw malformed('a Statement has no Action.');
    if (one.Principal === undefined && one.NotPrincipal === undefined) throw malformed('a resource policy Statement needs a Principal.');
  }
  return statements;
}

const isEveryone = (principal: unknown): boolean =>
  principal === '*' || (!!principal && typeof principal === 'object' && [(principal as { AWS?: unknown }).AWS].flat().includes('*'));

/**
 * Whether the policy grants access to anyone: an Allow statement for the principal `*` without a
 * Condition to narrow it, what BlockPublicPolicy refuses (Secrets Manager's public policy check is
 * Zelkova's; this is its plainest case).
 */
export function allowsPublicAccess(statements: Statement[]): boolean {
  return statements.some((statement) => statement.Effect === 'Allow' && isEveryone(statement.Principal) && statement.Condition === undefined);
}
