import { AwsError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';

/** STS: who the caller is. Any credentials are the one local account. */
export function stsAction(params: QueryParams, accountId: string): Record<string, unknown> {
  if (params.action === 'GetCallerIdentity') {
    return { UserId: 'AIDALOCALCLOUDUSER', Account: accountId, Arn: `arn:aws:iam::${accountId}:user/local` };
  }
  throw new AwsError('InvalidAction', `The action ${params.action} is not valid for this web service.`);
}
