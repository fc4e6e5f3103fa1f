import { AwsError } from '../protocol/errors';

/** A DynamoDB attribute value as the JSON protocol carries it: exactly one of these members. */
export interface AttributeValue {
  S?: string;
  N?: string;
  B?: string;
  SS?: string[];
  NS?: string[];
  BS?: string[];
  M?: Record<string, AttributeValue>;
  L?: AttributeValue[];
  NULL?: boolean;
  BOOL?: boolean;
}

export type Item = Record<string, AttributeValue>;

export type ValueType = 'S' | 'N' | 'B' | 'SS' | 'NS' | 'BS' | 'M' | 'L' | 'NULL' | 'BOOL';

const TYPES: readonly ValueType[] = ['S', 'N', 'B', 'SS', 'NS', 'BS', 'M', 'L', 'NULL', 'BOOL'];

export const validation = (message: string) => new AwsError('ValidationException', message);

export function typeOf(value: AttributeValue): ValueType {
  const present = TYPES.filter((type) => value[type] !== undefined);
  if (present.length !== 1) {
    throw validation(`Supplied AttributeValue has ${present.length === 0 ? 'no' : 'more than one'} datatypes set, must contain exactly one of the supported datatypes`);
  }
  return present[0];
}

/** A DynamoDB number: an integer scaled by a power of ten, so decimals keep every digit. */
interface Decimal {
  digits: bigint;
  exponent: number;
}

const NUMBER = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

export function parseNumber(text: string): Decimal {
  const match = NUMBER.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw validation(`The parameter cannot be converted to a numeric value: ${text}`);
  const fraction = match[3] ?? '';
  const digits = BigInt(`${match[1] === '-' ? '-' : ''}${match[2] || '0'}${fraction}`);
  return { digits, exponent: Number(match[4] ?? 0) - fraction.length };
}

function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const exponent = Math.min(a.exponent, b.exponent);
  return [a.digits * 10n ** BigInt(a.exponent - exponent), b.digits * 10n ** BigInt(b.exponent - exponent), exponent];
}

export function compareNumbers(a: string, b: string): number {
  const [x, y] = aligned(parseNumber(a), parseNumber(b));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The plain decimal text of a number: no exponent, no needless zeros. */
export function formatNumber({ digits, exponent }: Decimal): string {
  const negative = digits < 0n;
  let text = (negative ? -digits : digits).toString();
  if (exponent >= 0) text = digits === 0n ? '0' : text + '0'.repeat(exponent);
  else {
    text = text.padStart(-exponent + 1, '0');
    const point = text.length + exponent;
    text = `${text.slice(0, point)}.${text.slice(point)}`.replace(/\.?0+$/, '');
  }
  return negative && text !== '0' ? `-${text}` : text;
}

export function addNumbers(a: string, b: string, sign: 1 | -1 = 1): string {
  const [x, y, exponent] = aligned(parseNumber(a), parseNumber(b));
  return formatNumber({ digits: x + BigInt(sign) * y, exponent });
}

/** The same number always gives the same text, so `1.50` and `1.5` are one key. */
export const canonicalNumber = (text: string) => formatNumber(parseNumber(text));

function compareBytes(a: Buffer, b: Buffer): number {
  return Buffer.compare(a, b);
}

/** Ordering of two scalars of one type (S by UTF-8 bytes, N numerically, B by bytes); undefined when they cannot be ordered. */
export function compareScalars(a: AttributeValue, b: AttributeValue): number | undefined {
  if (a.N !== undefined && b.N !== undefined) return compareNumbers(a.N, b.N);
  if (a.S !== undefined && b.S !== undefined) return compareBytes(Buffer.from(a.S), Buffer.from(b.S));
  if (a.B !== undefined && b.B !== undefined) return compareBytes(Buffer.from(a.B, 'base64'), Buffer.from(b.B, 'base64'));
  return undefined;
}

function sameSet(a: string[], b: string[], key: (value: string) => string): boolean {
  const left = new Set(a.map(key));
  return a.length === b.length && b.every((value) => left.has(key(value)));
}

export function equalValues(a: AttributeValue, b: AttributeValue): boolean {
  const type = typeOf(a);
  if (type !== typeOf(b)) return false;
  switch (type) {
    case 'N':
      return compareNumbers(a.N!, b.N!) === 0;
    case 'NS':
      return sameSet(a.NS!, b.NS!, canonicalNumber);
    case 'SS':
    case 'BS':
      return sameSet(a[type]!, b[type]!, (value) => value);
    case 'L':
      return a.L!.length === b.L!.length && a.L!.every((value, index) => equalValues(value, b.L![index]));
    case 'M': {
      const keys = Object.keys(a.M!);
      return keys.length === Object.keys(b.M!).length && keys.every((key) => b.M![key] !== undefined && equalValues(a.M![key], b.M![key]));
    }
    default:
      return a[type] === b[type];
  }
}

/** The bytes DynamoDB counts for an item: names plus values (the basis of the 400 KB item and 1 MB page limits). */
export function itemSize(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += Buffer.byteLength(name) + valueSize(value);
  return size;
}

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/[^0-9]/g, '').length / 2) + 1;
  if (value.B !== undefined) return Buffer.from(value.B, 'base64').length;
  if (value.SS) return value.SS.reduce((sum, member) => sum + Buffer.byteLength(member), 0);
  if (value.NS) return value.NS.reduce((sum, member) => sum + valueSize({ N: member }), 0);
  if (value.BS) return value.BS.reduce((sum, member) => sum + Buffer.from(member, 'base64').length, 0);
  if (value.L) return 3 + value.L.reduce((sum, member) => sum + 1 + valueSize(member), 0);
  if (value.M) return 3 + itemSize(value.M) + Object.keys(value.M).length;
  return 1;
}

/** Refuses what DynamoDB refuses in an item: empty sets, duplicate set members, bad numbers. */
export function checkValue(value: AttributeValue): void {
  const type = typeOf(value);
  if (type === 'N') parseNumber(value.N!);
  if (type === 'SS' || type === 'NS' || type === 'BS') {
    const members = value[type]!;
    const name = { SS: 'string', NS: 'number', BS: 'binary' }[type];
    if (members.length === 0) throw validation(`One or more parameter values were invalid: An ${name} set  may not be empty`);
    const keys = members.map((member) => (type === 'NS' ? canonicalNumber(member) : member));
    if (new Set(keys).size !== keys.length) throw validation(`One or more parameter values were invalid: Input collection [${members.join(', ')}] contains duplicates.`);
  }
  if (type === 'L') value.L!.forEach(checkValue);
  if (type === 'M') Object.values(value.M!).forEach(checkValue);
}
