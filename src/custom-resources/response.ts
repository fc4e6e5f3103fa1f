/**
 * The CloudFormation side of a custom resource handler: the event it receives and the
 * answer it must PUT to the pre-signed response URL (CloudFormation waits up to an hour
 * for it, so every path, failures included, has to answer).
 *
 * Runs inside Lambda (Node.js 18+); depends on nothing but Node itself.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface CustomResourceEvent<P = Record<string, unknown>> {
  RequestType: 'Create' | 'Update' | 'Delete';
  ResponseURL: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceProperties: P;
  OldResourceProperties?: P;
}

export interface LambdaContext {
  invokedFunctionArn: string;
  logStreamName: string;
}

/** Runs `work` and reports its outcome to CloudFormation; the physical id is `physicalId` unless `work` failed before one existed. */
export async function respond<P>(
  event: CustomResourceEvent<P>,
  context: LambdaContext,
  physicalId: string,
  work: () => Promise<void>,
): Promise<void> {
  let status: 'SUCCESS' | 'FAILED' = 'SUCCESS';
  let reason = `See CloudWatch log stream ${context.logStreamName}`;
  try {
    await work();
  } catch (error) {
    status = 'FAILED';
    reason = `${(error as Error).message} (log stream ${context.logStreamName})`;
    console.error(error);
  }
  await put(event.ResponseURL, {
    Status: status,
    Reason: reason,
    PhysicalResourceId: event.PhysicalResourceId ?? physicalId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: {},
  });
}

function put(url: string, body: unknown): Promise<void> {
  const text = JSON.stringify(body);
  // Always https in AWS; plain http lets tests (and local clouds) listen on 127.0.0.1.
  const request = url.startsWith('http:') ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers: { 'content-type': '', 'content-length': Buffer.byteLength(text) } }, res => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** `arn:aws:lambda:eu-west-1:123456789012:function:x` → its partition, region and account. */
export function arnParts(arn: string): { partition: string; region: string; account: string } {
  const [, partition, , region, account] = arn.split(':');
  return { partition, region, account };
}
