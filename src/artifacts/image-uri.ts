/** An ECR image URI, by digest or by tag: what Lambda accepts as `Code.ImageUri`. */
export const ECR_URI = /^\d{12}\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\/[^@:\s]+(@sha256:[0-9a-f]{64}|:[\w][\w.-]{0,127})$/;

/** The parts of an ECR image URI (`<registry>.dkr.ecr.<region>.amazonaws.com/<repository>[:tag|@digest]`). */
export function parseEcrUri(uri: string): { registryId: string; region: string; repository: string; tag?: string; digest?: string } {
  const match = /^(\d{12})\.dkr\.ecr\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\/([^@:\s]+)(?:@(sha256:[0-9a-f]{64})|:([\w][\w.-]{0,127}))$/.exec(uri);
  if (!match) throw new Error(`not an ECR image URI: ${uri}`);
  return { registryId: match[1], region: match[2], repository: match[3], digest: match[4], tag: match[5] };
}
