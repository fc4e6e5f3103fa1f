import { isIP } from 'node:net';

/**
 * Listener rule conditions as Elastic Load Balancing evaluates them: every condition of a rule
 * must match, any one value of a condition matches. Path patterns and methods are case-sensitive;
 * host names, header values and query strings are not. `*` matches any run of characters, `?`
 * exactly one.
 */
export interface RuleRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  /** The Host header without the port. */
  host: string;
  /** Header lines as sent: lower-case name → every value. */
  headers: Record<string, string[]>;
  /** Query pairs, decoded. */
  query: [string, string][];
  sourceIp: string;
}

export interface RuleCondition {
  Field?: string;
  Values?: string[];
  PathPatternConfig?: { Values?: string[] };
  HostHeaderConfig?: { Values?: string[] };
  HttpHeaderConfig?: { HttpHeaderName?: string; Values?: string[] };
  HttpRequestMethodConfig?: { Values?: string[] };
  QueryStringConfig?: { Values?: { Key?: string; Value?: string }[] };
  SourceIpConfig?: { Values?: string[] };
}

function wildcard(pattern: string, caseSensitive: boolean): RegExp {
  const source = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, caseSensitive ? 's' : 'is');
}

const matchesAny = (values: string[], text: string, caseSensitive: boolean) => values.some((value) => wildcard(value, caseSensitive).test(text));

export function conditionMatches(condition: RuleCondition, request: RuleRequest): boolean {
  switch (condition.Field) {
    case 'path-pattern':
      return matchesAny(condition.PathPatternConfig?.Values ?? condition.Values ?? [], request.path, true);
    case 'host-header':
      return matchesAny(condition.HostHeaderConfig?.Values ?? condition.Values ?? [], request.host, false);
    case 'http-header': {
      const values = request.headers[String(condition.HttpHeaderConfig?.HttpHeaderName ?? '').toLowerCase()] ?? [];
      return values.some((value) => matchesAny(condition.HttpHeaderConfig?.Values ?? [], value, false));
    }
    case 'http-request-method':
      return (condition.HttpRequestMethodConfig?.Values ?? condition.Values ?? []).includes(request.method);
    case 'query-string':
      return (condition.QueryStringConfig?.Values ?? []).some(
        (pair) => pair.Value !== undefined && request.query.some(([key, value]) => (pair.Key === undefined || wildcard(pair.Key, false).test(key)) && wildcard(pair.Value!, false).test(value)),
      );
    case 'source-ip':
      return (condition.SourceIpConfig?.Values ?? condition.Values ?? []).some((cidr) => inCidr(request.sourceIp, cidr));
    default:
      return false;
  }
}

export const ruleMatches = (conditions: RuleCondition[], request: RuleRequest): boolean => conditions.every((condition) => conditionMatches(condition, request));

/** The address as a big integer and its family (an IPv4-mapped IPv6 address counts as IPv4). */
function addressBits(address: string): { value: bigint; bits: number } | undefined {
  const plain = address.replace(/^::ffff:(?=\d+\.)/i, '');
  if (isIP(plain) === 4) return { value: plain.split('.').reduce((sum, part) => (sum << 8n) + BigInt(Number(part)), 0n), bits: 32 };
  if (isIP(plain) !== 6) return undefined;
  const [head, tail = ''] = plain.split('::');
  const parts = (text: string) => (text ? text.split(':') : []);
  const missing = 8 - parts(head).length - parts(tail).length;
  const groups = plain.includes('::') ? [...parts(head), ...Array<string>(missing).fill('0'), ...parts(tail)] : parts(head);
  return { value: groups.reduce((sum, group) => (sum << 16n) + BigInt(parseInt(group, 16)), 0n), bits: 128 };
}

export function inCidr(address: string, cidr: string): boolean {
  const [network, prefixText] = cidr.split('/');
  const ip = addressBits(address);
  const net = addressBits(network);
  if (!ip || !net || ip.bits !== net.bits) return false;
  const prefix = BigInt(prefixText === undefined ? net.bits : Number(prefixText));
  const shift = BigInt(net.bits) - prefix;
  return ip.value >> shift === net.value >> shift;
}
