import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CloudError } from '../errors';
import type { AwsTarget } from '../aws/clients';
import { sdkConfig } from '../aws/clients';
import type { Artifact, Artifacts } from '../artifacts/artifact';
import { hashBytes } from '../artifacts/zip';

/**
 * `package.artifact: s3://bucket/key.zip` (service-wide or per function), as Serverless v3 deploys
 * it: the object is downloaded into the package, hashed, and from then on is an artifact like one
 * fw built (uploaded to the deployment bucket, the function's `Code` and version hash taken from its
 * bytes). So a new object at the same key changes the deployment and deploys new code. Layers keep
 * pointing at their S3 object, as v3 leaves them.
 */
export async function fetchS3Artifacts(artifacts: Artifacts, folder: string, target: AwsTarget): Promise<void> {
  const inS3 = Object.values(artifacts.functions).filter(artifact => artifact.s3);
  if (inS3.length === 0) return;
  const s3 = new S3Client({ ...sdkConfig(target), forcePathStyle: Boolean(target.endpoint) });
  const fetched = new Map<string, Promise<Artifact>>();
  const fetch = (artifact: Artifact): Promise<Artifact> => {
    const { bucket, key } = artifact.s3!;
    let download = fetched.get(`${bucket}/${key}`);
    if (!download) {
      download = downloadArtifact(s3, bucket, key, folder);
      fetched.set(`${bucket}/${key}`, download);
    }
    return download;
  };
  try {
    for (const [name, artifact] of Object.entries(artifacts.functions)) if (artifact.s3) artifacts.functions[name] = await fetch(artifact);
    if (artifacts.service?.s3) artifacts.service = await fetch(artifacts.service);
  } finally {
    s3.destroy();
  }
}

async function downloadArtifact(s3: S3Client, bucket: string, key: string, folder: string): Promise<Artifact> {
  let bytes: Buffer;
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    bytes = Buffer.from(await object.Body!.transformToByteArray());
  } catch (error) {
    const err = error as { name?: string; message?: string };
    throw new CloudError(`Cannot download the artifact s3://${bucket}/${key} (package.artifact): ${err.name ?? 'Error'}: ${err.message ?? String(error)}`);
  }
  const name = basename(key);
  const path = join(folder, name);
  writeFileSync(path, bytes);
  return { name, path, ...hashBytes(bytes) };
}
