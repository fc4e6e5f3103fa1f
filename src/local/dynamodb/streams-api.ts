/**
 * The DynamoDB Streams API (JSON 1.0, target prefix DynamoDBStreams_20120810): ListStreams,
 * DescribeStream, GetShardIterator and GetRecords over the records DynamoDbStreams keeps, one
 * shard per stream, as the AWS API reference describes them.
 */
import { AwsError } from '../protocol/errors';
import type { DynamoDbStreams } from './streams';
import type { TableDefinition, TableStore } from './tables';

/** Shard iterators expire 15 minutes after they are issued, as on AWS. */
const ITERATOR_LIFETIME_MS = 15 * 60 * 1000;
/** Before every sequence number (all have 21 digits and compare as strings). */
const BEFORE_ALL = '0';

const validation = (message: string) => new AwsError('ValidationException', message);
const notFound = (message: string) => new AwsError('ResourceNotFoundException', message);

interface Iterator {
  arn: string;
  shard: string;
  /** Records after this sequence number come next. */
  after: string;
  issued: number;
}

const encode = (iterator: Iterator) => Buffer.from(JSON.stringify(iterator)).toString('base64url');

function decode(text: unknown): Iterator {
  if (typeof text !== 'string' || text.length === 0 || text.length > 2048) throw validation('Invalid ShardIterator');
  try {
    const iterator = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Iterator;
    if (typeof iterator.arn === 'string' && typeof iterator.shard === 'string' && typeof iterator.after === 'string' && typeof iterator.issued === 'number') return iterator;
  } catch {
    // refused below
  }
  throw validation('Invalid ShardIterator');
}

const streamLabel = (arn: string) => arn.split('/stream/')[1];

/** The tables whose current stream is this ARN (enabled or not: a disabled stream is still described). */
function tableOfStream(store: TableStore, arn: unknown): TableDefinition {
  if (typeof arn !== 'string' || arn.length < 37) throw validation(`1 validation error detected: Value '${String(arn)}' at 'streamArn' failed to satisfy constraint: Member must have length greater than or equal to 37`);
  const tableName = /:table\/([^/]+)\/stream\//.exec(arn)?.[1];
  const definition = tableName === undefined ? undefined : store.get(tableName)?.definition;
  if (!definition || definition.LatestStreamArn !== arn) throw notFound(`Requested resource not found: Stream: ${arn} not found`);
  return definition;
}

function checkShard(streams: DynamoDbStreams, arn: string, shardId: unknown): string {
  if (typeof shardId !== 'string' || !streams.shardIds(arn).includes(shardId)) throw notFound(`Requested resource not found: Shard does not exist`);
  return shardId;
}

/** A record as GetRecords returns it: the Lambda event's record without the stream's ARN. */
function apiRecord(event: Record<string, unknown>): Record<string, unknown> {
  const { eventSourceARN: _arn, ...record } = event;
  return record;
}

export function dynamoDbStreamsOperation(store: TableStore, streams: DynamoDbStreams, operation: string, input: Record<string, unknown>): Record<string, unknown> {
  switch (operation) {
    case 'ListStreams': {
      const limit = input.Limit === undefined ? 100 : Number(input.Limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw validation(`1 validation error detected: Value '${String(input.Limit)}' at 'limit' failed to satisfy constraint: Member must have value between 1 and 100`);
      if (input.TableName !== undefined && !store.get(String(input.TableName))) throw notFound(`Requested resource not found: Table: ${String(input.TableName)} not found`);
      const names = input.TableName !== undefined ? [String(input.TableName)] : store.names();
      const all = names
        .map((name) => store.get(name)!.definition)
        .filter((definition) => definition.LatestStreamArn !== undefined)
        .map((definition) => ({ StreamArn: definition.LatestStreamArn!, TableName: definition.TableName, StreamLabel: streamLabel(definition.LatestStreamArn!) }))
        .sort((a, b) => (a.StreamArn < b.StreamArn ? -1 : 1));
      const start = input.ExclusiveStartStreamArn === undefined ? 0 : all.findIndex((stream) => stream.StreamArn > String(input.ExclusiveStartStreamArn));
      const page = start < 0 ? [] : all.slice(start, start + limit);
      const more = start >= 0 && start + limit < all.length;
      return { Streams: page, ...(more ? { LastEvaluatedStreamArn: page.at(-1)!.StreamArn } : {}) };
    }
    case 'DescribeStream': {
      const definition = tableOfStream(store, input.StreamArn);
      const arn = definition.LatestStreamArn!;
      const enabled = definition.StreamSpecification?.StreamEnabled !== false;
      const first = streams.read(arn, '', undefined, 1)[0];
      const shards = streams.shardIds(arn).filter((shardId) => input.ExclusiveStartShardId === undefined || shardId > String(input.ExclusiveStartShardId));
      return {
        StreamDescription: {
          StreamArn: arn,
          StreamLabel: streamLabel(arn),
          StreamStatus: enabled ? 'ENABLED' : 'DISABLED',
          StreamViewType: definition.StreamSpecification?.StreamViewType ?? 'NEW_AND_OLD_IMAGES',
          CreationRequestDateTime: definition.CreationDateTime,
          TableName: definition.TableName,
          KeySchema: definition.KeySchema,
          Shards: shards.map((ShardId) => ({ ShardId, SequenceNumberRange: { StartingSequenceNumber: first?.sequenceNumber ?? '100000000000000000001' } })),
        },
      };
    }
    case 'GetShardIterator': {
      const arn = tableOfStream(store, input.StreamArn).LatestStreamArn!;
      const shard = checkShard(streams, arn, input.ShardId);
      const type = input.ShardIteratorType;
      const sequence = input.SequenceNumber;
      let after: string;
      if (type === 'TRIM_HORIZON') after = BEFORE_ALL;
      else if (type === 'LATEST') after = streams.read(arn, shard, undefined, Number.MAX_SAFE_INTEGER).at(-1)?.sequenceNumber ?? BEFORE_ALL;
      else if (type === 'AT_SEQUENCE_NUMBER' || type === 'AFTER_SEQUENCE_NUMBER') {
        if (typeof sequence !== 'string' || !/^\d{21,40}$/.test(sequence)) throw validation(`Invalid SequenceNumber: ${String(sequence)}`);
        after = type === 'AFTER_SEQUENCE_NUMBER' ? sequence : (BigInt(sequence) - 1n).toString();
      } else {
        throw validation(`1 validation error detected: Value '${String(type)}' at 'shardIteratorType' failed to satisfy constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, LATEST, AT_SEQUENCE_NUMBER, TRIM_HORIZON]`);
      }
      return { ShardIterator: encode({ arn, shard, after, issued: Date.now() }) };
    }
    case 'GetRecords': {
      const iterator = decode(input.ShardIterator);
      const limit = input.Limit === undefined ? 1000 : Number(input.Limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw validation(`1 validation error detected: Value '${String(input.Limit)}' at 'limit' failed to satisfy constraint: Member must have value between 1 and 1000`);
      if (Date.now() - iterator.issued > ITERATOR_LIFETIME_MS) throw new AwsError('ExpiredIteratorException', 'Iterator expired. The iterator was created over 15 minutes ago.');
      tableOfStream(store, iterator.arn);
      const records = streams.read(iterator.arn, iterator.shard, iterator.after === BEFORE_ALL ? undefined : iterator.after, limit);
      const after = records.at(-1)?.sequenceNumber ?? iterator.after;
      return { Records: records.map((record) => apiRecord(record.event as Record<string, unknown>)), NextShardIterator: encode({ ...iterator, after, issued: Date.now() }) };
    }
    default:
      throw new AwsError('UnknownOperationException', `not emulated: DynamoDB Streams ${operation}`);
  }
}
