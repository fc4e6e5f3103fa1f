import { GetFunctionCommand, ListVersionsByFunctionCommand, UpdateFunctionCodeCommand, waitUntilFunctionUpdatedV2, type LambdaClient } from '@aws-sdk/client-lambda';
import { CloudError, ConfigError } from '../errors';
import type { AwsClients } from '../aws/clients';

/** The published versions of a deployed function (numbers, oldest first; `$LATEST` left out). */
export async function publishedVersions(lambda: LambdaClient, physicalName: string): Promise<string[]> {
  const versions: string[] = [];
  let marker: string | undefined;
  do {
    const page = await lambda.send(new ListVersionsByFunctionCommand({ FunctionName: physicalName, Marker: marker }));
    for (const version of page.Versions ?? []) if (version.Version && version.Version !== '$LATEST') versions.push(version.Version);
    marker = page.NextMarker;
  } while (marker);
  return versions.sort((a, b) => Number(a) - Number(b));
}

/**
 * `fw rollback function -f KEY --function-version N`, as v3 does it: reads the code of version N
 * (GetFunction with the version as qualifier) and sets it as the function's code (UpdateFunctionCode).
 * The configuration stays as it is.
 */
export async function rollbackFunctionCode(clients: AwsClients, lambda: LambdaClient, physicalName: string, version: string): Promise<void> {
  if (!/^\d+$/.test(version)) throw new ConfigError(`Invalid --function-version "${version}": expected a published version number, e.g. 3`);
  const found = await lambda.send(new GetFunctionCommand({ FunctionName: physicalName, Qualifier: version })).catch(error => {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') {
      throw new CloudError(`Function ${physicalName} has no version ${version} (--function-version); "fw deploy list functions" lists its versions`);
    }
    throw error;
  });
  const location = found.Code?.Location;
  if (!location) throw new CloudError(`Lambda gives no code location for ${physicalName} version ${version}: cannot roll back to it`);
  const zip = await downloadCode(clients, location);
  await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: physicalName, ZipFile: zip }));
  await waitUntilFunctionUpdatedV2({ client: lambda, maxWaitTime: 300, minDelay: 1, maxDelay: 5 }, { FunctionName: physicalName });
}

/**
 * The code zip at a GetFunction location: a presigned URL (AWS, and the local cloud for a version's
 * copy), or on a custom endpoint an object URL of its S3, read with the signed S3 client.
 */
async function downloadCode(clients: AwsClients, location: string): Promise<Uint8Array> {
  const endpoint = clients.target.endpoint?.replace(/\/$/, '');
  // A URL that carries its signature (AWS's presigned one, the local cloud's for a version's copy) is read as it is.
  const presigned = /[?&](X-Amz-Signature|Signature)=/.test(location);
  if (endpoint && location.startsWith(`${endpoint}/`) && !presigned) {
    const { GetObjectCommand } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
    const [bucket, ...key] = location.slice(endpoint.length + 1).split('/');
    const object = await clients.s3.send(new GetObjectCommand({ Bucket: bucket, Key: decodeURIComponent(key.join('/')) }));
    return object.Body!.transformToByteArray();
  }
  const response = await fetch(location, { signal: AbortSignal.timeout(120_000) });
  if (!response.ok) throw new CloudError(`Downloading the code of the version failed: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
