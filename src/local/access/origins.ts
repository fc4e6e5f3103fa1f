import { ConfigError } from '../../errors';

/**
 * Which browser pages may call the management APIs (CloudFormation, S3, Lambda,
 * SSM…): none by default, not even pages the local cloud serves itself (an object
 * in a bucket or a deployed API's response is same-origin with the server, and is
 * content the user did not necessarily write). `--allow-origin` adds origins; `*`
 * allows every page, only when given.
 */
export class OriginAllowList {
  private readonly origins: Set<string>;
  readonly any: boolean;

  constructor(origins: readonly string[] = []) {
    this.any = origins.includes('*');
    this.origins = new Set(origins.filter((origin) => origin !== '*'));
  }

  /** `--allow-origin` values → the origins they name, or a one-line error quoting the bad one. */
  static parse(values: readonly string[], source = '--allow-origin'): string[] {
    return values.map((value) => {
      if (value === '*') return value;
      let url: URL | undefined;
      try {
        url = new URL(value);
      } catch {
        url = undefined;
      }
      if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
        throw new ConfigError(`Invalid ${source}: expected an origin such as http://localhost:3000 (scheme, host and port, no path) or *, got ${JSON.stringify(value)}`);
      }
      return url.origin;
    });
  }

  allows(origin: string): boolean {
    if (this.any) return true;
    try {
      return this.origins.has(new URL(origin).origin);
    } catch {
      return false;
    }
  }

  /**
   * Whether a browser made this request on behalf of a page that is not allowed.
   * A browser names the page in `Origin` (cross-origin requests, and same-origin ones
   * other than GET/HEAD) and says where the request comes from in `Sec-Fetch-Site`
   * (even on a GET navigation, which carries no Origin); `none` is the user typing
   * the URL. Non-browser clients (SDKs, the AWS CLI, curl) send neither.
   */
  refuses(origin: string | undefined, fetchSite: string | undefined, readOnlyPresigned: boolean): boolean {
    if (origin !== undefined) return !this.allows(origin);
    if (fetchSite === undefined || fetchSite === 'none') return false;
    // A presigned GET carries its own authorization, the way a link to an object is shared.
    return !this.any && !readOnlyPresigned;
  }
}
