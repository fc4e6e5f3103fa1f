import { ConfigError } from '../../errors';
import type { Source } from '../source';
import { awsSourceClient } from './aws-client';

/** `${aws:region}` (--region ?? provider.region ?? "us-east-1") and `${aws:accountId}` (STS, only when used). */
export const aws: Source = async (ref, helpers) => {
  const { region } = helpers;
  switch (ref.address) {
    case 'region':
      return { value: await region() };
    case 'accountId': {
      const { STSClient, GetCallerIdentityCommand } = require('@aws-sdk/client-sts') as typeof import('@aws-sdk/client-sts');
      const client = await awsSourceClient(config => new STSClient(config), helpers, await region());
      try {
        const identity = await client.send(new GetCallerIdentityCommand({}));
        return { value: identity.Account };
      } finally {
        client.destroy();
      }
    }
    default:
      throw new ConfigError(`the aws source knows "region" and "accountId", not ${JSON.stringify(ref.address ?? '')}`);
  }
};
