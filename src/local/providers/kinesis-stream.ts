import { ON_DEMAND_SHARDS } from '../kinesis/streams';
import { generatedName } from './names';
import type { ResourceProvider } from './provider';

function mode(properties: Record<string, unknown>): 'PROVISIONED' | 'ON_DEMAND' {
  return (properties.StreamModeDetails as { StreamMode?: string } | undefined)?.StreamMode === 'ON_DEMAND' ? 'ON_DEMAND' : 'PROVISIONED';
}

/** AWS::Kinesis::Stream: a real local stream (Ref is its name, GetAtt Arn its ARN). A new shard count makes a new stream. */
export const kinesisStreamProvider: ResourceProvider = {
  replaceOn: ['Name', 'ShardCount'],
  create(properties, context) {
    const name = typeof properties.Name === 'string' ? properties.Name : generatedName(context.stackName, context.logicalId, 128);
    const streamMode = mode(properties);
    const shardCount = streamMode === 'ON_DEMAND' ? ON_DEMAND_SHARDS : Number(properties.ShardCount ?? 1);
    const retentionHours = properties.RetentionPeriodHours === undefined ? undefined : Number(properties.RetentionPeriodHours);
    const stream = context.cloud.kinesis.create({ name, shardCount, mode: streamMode, retentionHours }, context.region, context.accountId);
    return { physicalId: name, attributes: { Arn: stream.definition.StreamARN } };
  },
  update(properties, previous, context) {
    const retentionHours = properties.RetentionPeriodHours === undefined ? 24 : Number(properties.RetentionPeriodHours);
    context.cloud.kinesis.update(previous.physicalId, { retentionHours, mode: mode(properties) });
    return { physicalId: previous.physicalId, attributes: previous.attributes };
  },
  delete(record, context) {
    context.cloud.kinesis.delete(record.physicalId);
  },
};
