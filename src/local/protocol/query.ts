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

/** Members (by path: `MetricData.StatisticValues.Sum`) whose query-protocol text is a number or a boolean. */
export interface QueryScalarTypes {
  numbers?: ReadonlySet<string>;
  booleans?: ReadonlySet<string>;
}

type QueryTree = { [segment: string]: string | QueryTree };

const byIndex = (node: QueryTree) => Object.entries(node).sort(([a], [b]) => Number(a) - Number(b)).map(([, child]) => child);

/** One decoded member at `path`: a scalar typed by its path, a list's items and a map's values at the list's or map's. */
function nested(node: string | QueryTree, path: string, types: QueryScalarTypes): unknown {
  if (typeof node === 'string') return types.numbers?.has(path) ? Number(node) : types.booleans?.has(path) ? node === 'true' : node;
  if (typeof node.member === 'object') return byIndex(node.member).map((item) => nested(item, path, types));
  if (typeof node.entry === 'object') {
    return Object.fromEntries(byIndex(node.entry).map((entry) => (typeof entry === 'object' ? [String(entry.key), nested(entry.value ?? '', path, types)] : [entry, ''])));
  }
  return Object.fromEntries(Object.entries(node).map(([field, child]) => [field, nested(child, `${path}.${field}`, types)]));
}

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

  /**
   * Every parameter but Action and Version as the nested input the service's JSON protocol takes:
   * `Name.member.N` a list, `Name.entry.N.key` / `.value` a map, `Name.Field` a structure. The query
   * protocol sends every scalar as text: members whose path (`MetricData.Value`: field names, without
   * `member`, `entry` and indexes) is in `types` become numbers or booleans.
   */
  input(types: QueryScalarTypes = {}): Record<string, unknown> {
    const tree: QueryTree = {};
    for (const [key, value] of this.values) {
      if (key === 'Action' || key === 'Version') continue;
      const path = key.split('.');
      let node = tree;
      for (const segment of path.slice(0, -1)) {
        const child = node[segment];
        node = (node[segment] = typeof child === 'object' ? child : {}) as QueryTree;
      }
      node[path[path.length - 1]] = value;
    }
    return Object.fromEntries(Object.entries(tree).map(([name, child]) => [name, nested(child, name, types)]));
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
