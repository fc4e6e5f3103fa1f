/** Evaluating the IAM policy a Lambda authorizer returns, for one `execute-api:Invoke` on one method ARN. */

export type PolicyDecision = 'allow' | 'deny' | 'none';

interface Statement {
  Effect?: unknown;
  Action?: unknown;
  Resource?: unknown;
}

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);

/** IAM wildcards: `*` any run of characters, `?` any one character. */
export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}

/** Whether the document is a policy at all: `{ Statement: [...] }` or one statement object. */
export function isPolicyDocument(document: unknown): document is { Statement: Statement | Statement[] } {
  if (document === null || typeof document !== 'object') return false;
  const statement = (document as { Statement?: unknown }).Statement;
  return statement !== null && typeof statement === 'object';
}

/** An explicit Deny wins over any Allow; without a matching Allow the answer is no. */
export function evaluatePolicy(document: { Statement: Statement | Statement[] }, methodArn: string): PolicyDecision {
  const statements = Array.isArray(document.Statement) ? document.Statement : [document.Statement];
  let decision: PolicyDecision = 'none';
  for (const statement of statements) {
    const actionMatches = list(statement.Action).some((action) => wildcardMatch(action, 'execute-api:Invoke', true));
    const resourceMatches = list(statement.Resource).some((resource) => wildcardMatch(resource, methodArn));
    if (!actionMatches || !resourceMatches) continue;
    if (String(statement.Effect).toLowerCase() === 'deny') return 'deny';
    if (String(statement.Effect).toLowerCase() === 'allow') decision = 'allow';
  }
  return decision;
}
