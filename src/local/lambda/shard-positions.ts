import { join } from 'node:path';
import { readJson, writeJsonAtomic } from '../state/files';

/**
 * Where each event source mapping stands in each shard it reads: the sequence number of the last
 * record it finished with, saved after every batch in `state/shard-positions-<source>.json`, so a restarted
 * local cloud resumes each mapping where it was, as Lambda's pollers keep their checkpoints.
 */
export class ShardPositions {
  private readonly file: string;
  private readonly positions: Record<string, string>;

  /** `source`: which kind of stream (`dynamodb`, `kinesis`), each kept in a file of its own. */
  constructor(dataDir: string, source: string) {
    this.file = join(dataDir, 'state', `shard-positions-${source}.json`);
    this.positions = readJson<Record<string, string>>(this.file, {});
  }

  static key(mappingId: string, streamArn: string, shardId: string): string {
    return `${mappingId} ${streamArn} ${shardId}`;
  }

  get(key: string): string | undefined {
    return this.positions[key];
  }

  set(key: string, sequenceNumber: string): void {
    this.positions[key] = sequenceNumber;
    writeJsonAtomic(this.file, this.positions);
  }

  /** Forgets the positions of mappings that no longer exist. */
  keepOnly(mappingIds: Set<string>): void {
    const gone = Object.keys(this.positions).filter((key) => !mappingIds.has(key.split(' ')[0]));
    if (gone.length === 0) return;
    for (const key of gone) delete this.positions[key];
    writeJsonAtomic(this.file, this.positions);
  }
}
