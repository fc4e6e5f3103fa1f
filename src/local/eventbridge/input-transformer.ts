/** A target's InputTransformer: values picked from the event by JSON path, put into a template's `<name>` placeholders. */
export interface InputTransformer {
  InputPathsMap?: Record<string, string>;
  InputTemplate?: string;
}

/** `$.detail.user` / `$.resources[0]` style paths, the subset EventBridge evaluates (InputPath, InputPathsMap). */
export function atPath(event: unknown, path: string): unknown {
  return path
    .replace(/^\$\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), event);
}

/**
 * Renders the template as EventBridge does. A template that is a JSON object (starts with `{`)
 * takes each value as JSON where its placeholder stands bare (`"id": <id>` gives `"id": "i-1"`), and
 * escaped into the string where it is quoted (`"<id> is up"`); a path that matches nothing gives
 * null, or nothing in a string. Any other template is text: strings go in as they are, other values as JSON.
 * The predefined `aws.events.*` variables are offered too.
 */
export function renderInputTemplate(transformer: InputTransformer, event: Record<string, unknown>, rule: { name: string; arn: string }): string {
  const template = transformer.InputTemplate ?? '';
  const { detail: _detail, ...withoutDetail } = event;
  const values = new Map<string, unknown>([
    ['aws.events.rule-arn', rule.arn],
    ['aws.events.rule-name', rule.name],
    ['aws.events.event.ingestion-time', event.time],
    ['aws.events.event', withoutDetail],
    ['aws.events.event.json', event],
  ]);
  for (const [name, path] of Object.entries(transformer.InputPathsMap ?? {})) values.set(name, atPath(event, path));
  const json = template.trimStart().startsWith('{');
  let out = '';
  let inString = false;
  for (let i = 0; i < template.length; i++) {
    const char = template[i];
    if (char === '<') {
      const end = template.indexOf('>', i);
      const name = end > i ? template.slice(i + 1, end) : '';
      if (values.has(name)) {
        const value = values.get(name);
        if (!json) out += typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
        else if (inString) out += value === undefined ? '' : JSON.stringify(typeof value === 'string' ? value : JSON.stringify(value)).slice(1, -1);
        else out += JSON.stringify(value) ?? 'null';
        i = end;
        continue;
      }
    }
    if (json && char === '"') inString = !inString;
    else if (json && inString && char === '\\') {
      out += char + (template[i + 1] ?? '');
      i++;
      continue;
    }
    out += char;
  }
  return out;
}

/** A rendered template as a Lambda target receives it: the JSON it holds, else the text as a JSON string. */
export function parsedOrText(rendered: string): unknown {
  try {
    return JSON.parse(rendered) as unknown;
  } catch {
    return rendered;
  }
}
