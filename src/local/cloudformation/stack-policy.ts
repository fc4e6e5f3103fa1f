import type { Change } from './model';

/**
 * Stack policies as CloudFormation applies them during an update: once a stack
 * has a policy, every update action on every resource is denied unless a statement
 * allows it, and an explicit Deny wins over any Allow. Adding a resource is not an
 * update action, so a policy never stops it.
 */

interface Statement {
  Effect?: string;
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** A resource the policy keeps from changing, and the reason its UPDATE_FAILED event gives. */
export interface PolicyDenial {
  change: Change;
  reason: string;
}

const listOf = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** `*` and `?` as in IAM policies; everything else literal. */
function wildcardMatches(pattern: string, value: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(value);
}

/** The update action a change is: replacing, modifying in place, or deleting a resource. */
export function updateActionOf(change: Change): string | undefined {
  if (change.action === 'Remove') return 'Update:Delete';
  if (change.action === 'Modify') return change.replacement === 'False' ? 'Update:Modify' : 'Update:Replace';
  return undefined;
}

function actionMatches(statement: Statement, action: string): boolean {
  if (statement.NotAction !== undefined) return !listOf(statement.NotAction).some((pattern) => wildcardMatches(pattern, action));
  return listOf(statement.Action).some((pattern) => wildcardMatches(pattern, action));
}

function resourceMatches(statement: Statement, resource: string): boolean {
  if (statement.NotResource !== undefined) return !listOf(statement.NotResource).some((pattern) => wildcardMatches(pattern, resource));
  return listOf(statement.Resource).some((pattern) => wildcardMatches(pattern, resource));
}

/** Stack policies have one condition key, `ResourceType`, compared with the String operators. */
function conditionMatches(statement: Statement, resourceType: string): boolean {
  for (const [operator, keys] of Object.entries(statement.Condition ?? {})) {
    for (const [key, expected] of Object.entries(keys)) {
      const value = key === 'ResourceType' ? resourceType : undefined;
      const values = listOf(expected);
      const holds =
        operator === 'StringEquals' ? value !== undefined && values.includes(value)
        : operator === 'StringNotEquals' ? value === undefined || !values.includes(value)
        : operator === 'StringLike' ? value !== undefined && values.some((pattern) => wildcardMatches(pattern, value))
        : operator === 'StringNotLike' ? value === undefined || !values.some((pattern) => wildcardMatches(pattern, value))
        : false;
      if (!holds) return false;
    }
  }
  return true;
}

/** Why the policy stops this change, or undefined when it allows it. */
function denialOf(statements: Statement[], change: Change): string | undefined {
  const action = updateActionOf(change);
  if (!action) return undefined;
  const resource = `LogicalResourceId/${change.logicalId}`;
  const applies = (statement: Statement) => actionMatches(statement, action) && resourceMatches(statement, resource) && conditionMatches(statement, change.type);
  const denying = statements.findIndex((statement) => statement.Effect === 'Deny' && applies(statement));
  if (denying >= 0) return `Action denied by stack policy: Statement [#${denying}] does not allow [${action}] for resource [${resource}]`;
  if (statements.some((statement) => statement.Effect === 'Allow' && applies(statement))) return undefined;
  return `Action denied by stack policy: No statement allows [${action}] for resource [${resource}]`;
}

/** The first change, in the order given, that the policy (a checked policy document) denies. */
export function policyDenial(policyBody: string | undefined, changes: Change[]): PolicyDenial | undefined {
  if (policyBody === undefined) return undefined;
  const statements = listOfStatements(JSON.parse(policyBody).Statement);
  for (const change of changes) {
    const reason = denialOf(statements, change);
    if (reason) return { change, reason };
  }
  return undefined;
}

function listOfStatements(value: unknown): Statement[] {
  if (Array.isArray(value)) return value as Statement[];
  return value && typeof value === 'object' ? [value as Statement] : [];
}
