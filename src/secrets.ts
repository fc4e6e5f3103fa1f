/**
 * Values read from `ssm:`, `s3:` and `cf:` during this run, and where each came from. Every
 * line fw prints (errors, warnings, `fw print`, the CLI's own output) goes through `mask`, so a
 * secret placed where fw complains about it shows as `<secret from ssm:/db/password>`.
 *
 * One registry per process, not per resolution: a message can be built anywhere (a schema
 * check, a construct, a CloudFormation failure reason), long after the resolver is gone.
 */
export class SecretValues {
  /** value → the variable it came from (`ssm:/db/password`); the first origin wins. */
  private readonly origins = new Map<string, string>();
  /** Longest first, so a secret containing another is masked whole. */
  private sorted: string[] = [];

  /** Records a value (every leaf of a list or object) as secret. */
  add(value: unknown, origin: string): void {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      const text = String(value);
      if (text === '' || this.origins.has(text)) return;
      this.origins.set(text, origin);
      this.sorted = [...this.origins.keys()].sort((a, b) => b.length - a.length);
    } else if (value !== null && typeof value === 'object') {
      for (const child of Object.values(value)) this.add(child, origin);
    }
  }

  /** Every secret with its origin, `[value, "ssm:/db/password"]`, in the order they were read. */
  entries(): Array<[string, string]> {
    return [...this.origins.entries()];
  }

  /** `<secret from ssm:/db/password>` when the whole value is a secret, else undefined. */
  whole(value: unknown): string | undefined {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    const origin = this.origins.get(String(value));
    return origin === undefined ? undefined : marker(origin);
  }

  /**
   * The text with every secret replaced by its marker. A secret under 4 characters is only
   * masked as a whole value (`whole`): masking "1" inside text would hide every digit.
   */
  mask(text: string): string {
    if (this.sorted.length === 0) return text;
    let masked = text;
    for (const secret of this.sorted) {
      if (secret.length >= MIN_EMBEDDED && masked.includes(secret)) masked = masked.split(secret).join(marker(this.origins.get(secret)!));
    }
    return masked;
  }

  /** A copy of configuration data with secrets masked in every leaf (for `fw print`). */
  maskValue(value: unknown): unknown {
    if (this.sorted.length === 0) return value;
    if (Array.isArray(value)) return value.map((item) => this.maskValue(item));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, this.maskValue(child)]));
    }
    const whole = this.whole(value);
    if (whole !== undefined) return whole;
    return typeof value === 'string' ? this.mask(value) : value;
  }

  /**
   * Masks what the process writes to `stream` (the CLI's stdout and stderr): the last line of
   * defence for text fw does not build itself, such as a plugin's log or a CloudFormation
   * failure reason quoting a property. `fw print --show-secrets` turns it off with `reveal`.
   */
  guard(stream: NodeJS.WritableStream): void {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (this.revealed || this.sorted.length === 0) return write(chunk, ...rest);
      const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : undefined;
      if (text === undefined) return write(chunk, ...rest);
      const masked = this.mask(text);
      return masked === text ? write(chunk, ...rest) : write(masked, ...rest.filter((arg) => typeof arg === 'function'));
    }) as typeof stream.write;
  }

  /** Lets secrets through `guard` for the rest of the run (`--show-secrets`). */
  reveal(): void {
    this.revealed = true;
  }

  private revealed = false;

  /** Forgets every value (tests running several services in one process). */
  clear(): void {
    this.origins.clear();
    this.sorted = [];
  }
}

const MIN_EMBEDDED = 4;

const marker = (origin: string) => `<secret from ${origin}>`;

export const secretValues = new SecretValues();
