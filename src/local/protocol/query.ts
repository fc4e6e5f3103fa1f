import { AwsError } from './errors';

/** The XML namespace of each query-protocol service's responses. */
export const QUERY_NAMESPACES: Record<string, string> = {
  cloudformation: 'http://cloudformation.amazonaws.com/doc/2010-05-15/',
  sts: 'https://sts.amazonaws.com/doc/2011-06-15/',
  sns: 'http://sns.amazonaws.com/doc/2010-03-31/',
  iam: 'https://iam.amazonaws.com/doc/2010-05-08/',
  monitoring: 'http://monitoring.amazonaws.com/doc/2010-08-01/',
  ses: 'http://ses.amazonaws.com/doc/2010-12-01/',
};

/**
 * The form-encoded parameters of a query-protocol call (CloudFormation, STS,
 * SNS), with readers for the `List.member.N` and `List.member.N.Field` shapes.
 */
export class QueryParams {
  constructor(private readonly values: Map<string, string>) {}

  static parse(body: string, search: URLSearchParams): QueryParams {
    const values = new Map<string, string>();
    for (const [key, value] of search) values.set(key, value);
    for (const [key, value] of new URLSearchParams(body)) values.set(key, value);
    return new QueryParams(values);
  }

  get action(): string {
    return this.values.get('Action') ?? '';
  }

  string(name: string): string | undefined {
    return this.values.get(name);
  }

  required(name: string): string {
    const value = this.values.get(name);
    if (value === undefined || value === '') {
      throw new AwsError('ValidationError', `1 validation error detected: Value null at '${name[0].toLowerCase()}${name.slice(1)}' failed to satisfy constraint: Member must not be null`);
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.values.get(name);
    return value === undefined ? undefined : value === 'true';
  }

  number(name: string): number | undefined {
    const value = this.values.get(name);
    return value === undefined ? undefined : Number(value);
  }

  /** `Name.member.1`, `Name.member.2`, … */
  list(name: string): string[] {
    const items: string[] = [];
    for (let i = 1; this.values.has(`${name}.member.${i}`); i++) items.push(this.values.get(`${name}.member.${i}`)!);
    return items;
  }

  /** `Name.member.1.Field`, … as objects of their fields. */
  structs(name: string): Record<string, string>[] {
    const items: Record<string, string>[] = [];
    for (let i = 1; ; i++) {
      const prefix = `${name}.member.${i}.`;
      const item: Record<string, string> = {};
      for (const [key, value] of this.values) if (key.startsWith(prefix)) item[key.slice(prefix.length)] = value;
      if (Object.keys(item).length === 0) return items;
      items.push(item);
    }
  }
}
