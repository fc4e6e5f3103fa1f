/**
 * The XML the AWS deserializers read. Query protocols (CloudFormation, STS, SNS)
 * wrap list items in `<member>`; S3 repeats the element itself, which a
 * `flat()` array asks for.
 */
const FLAT = Symbol('flat');
type Flat = unknown[] & { [FLAT]: true };

export function flat(items: unknown[]): unknown[] {
  return Object.assign([...items], { [FLAT]: true as const });
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function scalar(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return escapeXml(String(value));
}

/** `<name>…</name>` for a value; undefined and null leave the element out. */
export function element(name: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) {
    if ((value as Flat)[FLAT]) return value.map((item) => element(name, item)).join('');
    return `<${name}>${value.map((item) => element('member', item)).join('')}</${name}>`;
  }
  if (typeof value === 'object' && !(value instanceof Date)) {
    const children = Object.entries(value as Record<string, unknown>).map(([key, child]) => element(key, child)).join('');
    return `<${name}>${children}</${name}>`;
  }
  return `<${name}>${scalar(value)}</${name}>`;
}

export function document(name: string, value: Record<string, unknown>, namespace?: string): string {
  const ns = namespace ? ` xmlns="${namespace}"` : '';
  const body = element(name, value).replace(`<${name}>`, `<${name}${ns}>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}

/** The text of every `<tag>` element, in order; enough for the small request bodies S3 receives. */
export function textsOf(xml: string, tag: string): string[] {
  return blocksOf(xml, tag).map(unescapeXml);
}

/** The inner XML of every `<tag>` element, in order, as written (for elements that do not nest in their own kind). */
export function blocksOf(xml: string, tag: string): string[] {
  const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g');
  return [...xml.matchAll(pattern)].map((match) => match[1]);
}

export function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, entity: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (named[entity.toLowerCase()]) return named[entity.toLowerCase()];
    const code = entity[1].toLowerCase() === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
    return String.fromCodePoint(code);
  });
}
