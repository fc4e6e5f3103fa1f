import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { S3Client } from '@aws-sdk/client-s3';
import { startLocalCloud, type RunningLocalCloud } from '../../src/local';

/** A local cloud of a test's own: a free port, a temporary data folder, and SDK clients pointed at it. */
export interface TestCloud {
  cloud: RunningLocalCloud;
  dataDir: string;
  cfn: CloudFormationClient;
  s3: S3Client;
  /** Stops the server and deletes its data. */
  stop(): Promise<void>;
}

export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export async function startTestCloud(): Promise<TestCloud> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-test-cloud-'));
  const cloud = await startLocalCloud({ port: 0, dataDir, quiet: true });
  const client = { endpoint: cloud.url, region: 'us-east-1', credentials: LOCAL_CREDENTIALS };
  return {
    cloud,
    dataDir,
    cfn: new CloudFormationClient(client),
    s3: new S3Client({ ...client, forcePathStyle: true }),
    stop: async () => {
      await cloud.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
