import { ConfigError } from '../../errors';
import type { Source } from '../source';
import { awsSourceClient, isNotFound } from './aws-client';

/** `${s3:bucket/key}`: the object's content as text. */
export const s3: Source = async (ref, helpers) => {
  const { region } = helpers;
  const address = ref.address ?? '';
  const slash = address.indexOf('/');
  if (slash <= 0 || slash === address.length - 1) throw new ConfigError(`s3 expects "bucket/key", got ${JSON.stringify(address)}`);
  const { S3Client, GetObjectCommand } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const client = await awsSourceClient(config => new S3Client(config), helpers, await region());
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: address.slice(0, slash), Key: address.slice(slash + 1) }));
    return { value: (await answer.Body?.transformToString()) ?? '', secret: true };
  } catch (error) {
    if (isNotFound(error)) return { missing: 'has no value (no such bucket or key)' };
    throw error;
  } finally {
    client.destroy();
  }
};
