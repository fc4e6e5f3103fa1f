/** A function's answer, as the runtime gives it (the version that ran beside it). */
export interface FunctionOutcome {
  requestId?: string;
  payload: string;
  /** Set when the function failed ('Unhandled'). */
  functionError?: string;
  executedVersion: string;
}

/** What Task states reach: the local cloud's functions and the JSON APIs of its services. */
export interface TaskServices {
  readonly region: string;
  /** Runs a function and waits, as Lambda's RequestResponse Invoke does. */
  invoke(functionName: string, event: unknown, qualifier?: string): Promise<FunctionOutcome>;
  invokeAsync(functionName: string, event: unknown, qualifier?: string): void;
  /** A JSON-protocol operation of a local service (`DynamoDB_20120810.PutItem`): its answer, or an AwsError. */
  callApi(target: string, input: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** SNS Publish (a query-protocol API, reached directly). */
  publish(input: Record<string, unknown>): { MessageId: string };
  /** An S3 object's bytes and metadata; an AwsError (NoSuchBucket, NoSuchKey) when missing. */
  getObject(bucket: string, key: string, versionId?: string): { object: StoredObjectSummary; data: Buffer };
  putObject(bucket: string, key: string, body: Buffer, contentType?: string): { etag: string; versionId?: string };
}

/** What an S3 integration answers about an object. */
export interface StoredObjectSummary {
  etag: string;
  lastModified: string;
  contentType?: string;
  metadata: Record<string, string>;
  versionId?: string;
}
