import { ConfigError } from '../../errors';
import type { Source } from '../source';

/** `${sls:stage}` (--stage ?? provider.stage ?? "dev") and `${sls:instanceId}` (one id per CLI run). */
export const sls: Source = async (ref, { context, stage }) => {
  switch (ref.address) {
    case 'stage':
      return { value: await stage() };
    case 'instanceId':
      return { value: context.instanceId };
    default:
      throw new ConfigError(`the sls source knows "stage" and "instanceId", not ${JSON.stringify(ref.address ?? '')}`);
  }
};
