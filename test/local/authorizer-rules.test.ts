import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { quotaWindow } from '../../src/local/auth/api-keys';
import { identitySourceList } from '../../src/local/auth/identity-sources';
import { evaluatePolicy } from '../../src/local/auth/policy';

const rules = suite('authorizer rules: IAM policies, quota windows, identity sources');

const ARN = 'arn:aws:execute-api:us-east-1:000000000000:abc123/dev/GET/users/42';
const statement = (Effect: string, Resource: string | string[], Action: string | string[] = 'execute-api:Invoke') => ({ Effect, Action, Resource });

rules('an Allow matching the method ARN with * and ? wildcards allows', () => {
  assert.equal(
    [
      evaluatePolicy({ Statement: [statement('Allow', 'arn:aws:execute-api:us-east-1:000000000000:abc123/*')] }, ARN),
      evaluatePolicy({ Statement: statement('Allow', 'arn:aws:execute-api:us-east-1:000000000000:abc123/d?v/GET/users/*') }, ARN),
      evaluatePolicy({ Statement: [statement('Allow', ['arn:aws:execute-api:*:*:other/*', ARN], ['execute-api:*'])] }, ARN),
    ],
    ['allow', 'allow', 'allow'],
  );
});

rules('an explicit Deny wins; no matching Allow, another action or another ARN decide nothing', () => {
  assert.equal(
    [
      evaluatePolicy({ Statement: [statement('Allow', '*'), statement('Deny', 'arn:aws:execute-api:*:*:abc123/dev/GET/users/*')] }, ARN),
      evaluatePolicy({ Statement: [statement('Allow', 'arn:aws:execute-api:us-east-1:000000000000:abc123/dev/POST/*')] }, ARN),
      evaluatePolicy({ Statement: [statement('Allow', '*', 'execute-api:ManageConnections')] }, ARN),
      evaluatePolicy({ Statement: [statement('Allow', 'arn:aws:execute-api:us-east-1:000000000000:abc123/dev/GET/users/4')] }, ARN),
    ],
    ['deny', 'none', 'none', 'none'],
  );
});

rules('quota windows: a UTC day, a week from Sunday plus Offset days, a month', () => {
  const saturday = new Date('2026-11-28T23:00:00Z');
  const sunday = new Date('2026-11-29T01:00:00Z');
  assert.equal(
    [
      quotaWindow('DAY', 0, saturday) === quotaWindow('DAY', 0, sunday),
      quotaWindow('WEEK', 0, saturday) === quotaWindow('WEEK', 0, sunday),
      quotaWindow('WEEK', 1, saturday) === quotaWindow('WEEK', 1, sunday),
      quotaWindow('MONTH', 0, saturday) === quotaWindow('MONTH', 0, new Date('2026-11-01T00:00:00Z')),
      quotaWindow('MONTH', 0, saturday) === quotaWindow('MONTH', 0, new Date('2026-12-01T00:00:00Z')),
    ],
    [false, false, true, true, false],
  );
});

rules('identity sources: a list for HTTP APIs, a comma-separated string for REST APIs', () => {
  assert.equal(identitySourceList(['$request.header.Authorization', null, '$request.querystring.token']), ['$request.header.Authorization', '$request.querystring.token']);
  assert.equal(identitySourceList('method.request.header.Authorization, method.request.querystring.token'), ['method.request.header.Authorization', 'method.request.querystring.token']);
});

rules.run();
