/** A built artifact as the constructs reference it and deploy uploads it: the zip's name, place and hashes. */
export interface Artifact {
  /** File name as uploaded ("app.zip", "hello.zip", or a prebuilt artifact's base name). */
  name: string;
  /** Absolute path on disk. */
  path: string;
  /** sha256 of the bytes, hex. */
  sha256: string;
  /** sha256 of the bytes, base64: what Lambda reports as CodeSha256. */
  codeSha256: string;
  size: number;
  /**
   * Set for a `package.artifact` that names an S3 object (`s3://bucket/key`, or an https S3 URL):
   * the code is used from there, nothing is uploaded; `path` is the URI and the hashes are empty.
   */
  s3?: { bucket: string; key: string };
}

export interface Artifacts {
  /** The service-wide zip, when at least one function uses it. */
  service?: Artifact;
  /** Every zip-based function's artifact (several functions may share the service one). */
  functions: Record<string, Artifact>;
  layers: Record<string, Artifact>;
  /** With `cacheDir`: how many files' compressed bytes were reused from the last package, how many were compressed. */
  cache?: { reused: number; compressed: number };
}
