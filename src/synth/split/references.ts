/**
 * Where a template value points at other resources: `Ref`, `Fn::GetAtt` (both forms),
 * `${Name}` / `${Name.Attribute}` inside `Fn::Sub`. `DependsOn` is read separately.
 */

export interface Reference {
  target: string;
  /** The attribute of `Fn::GetAtt` / `${Name.Attribute}`; none for `Ref`. */
  attribute?: string;
}

const SUB_VARIABLE = /\$\{([^!}][^}]*)\}/g;

/**
 * Every reference in a value, in document order (duplicates included). This and
 * `rewriteReferences` walk whole templates: index loops and no destructuring, which
 * allocate iterators while the code runs cold.
 */
export function referencesIn(value: unknown, found: Reference[] = []): Reference[] {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) referencesIn(value[i], found);
    return found;
  }
  if (value === null || typeof value !== 'object') return found;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 1) {
    const key = keys[0];
    const argument = object[key];
    if (key === 'Ref' && typeof argument === 'string') {
      if (!argument.startsWith('AWS::')) found.push({ target: argument });
      return found;
    }
    if (key === 'Fn::GetAtt') {
      const parts = getAttParts(argument);
      if (parts[0]) found.push({ target: parts[0], attribute: parts[1] });
      return found;
    }
    if (key === 'Fn::Sub') {
      const [text, variables] = Array.isArray(argument) ? [argument[0], argument[1] as Record<string, unknown> | undefined] : [argument, undefined];
      if (typeof text === 'string') {
        for (const match of text.matchAll(SUB_VARIABLE)) {
          const name = match[1].trim();
          if (name.startsWith('AWS::') || (variables && name in variables)) continue;
          const dot = name.indexOf('.');
          found.push(dot < 0 ? { target: name } : { target: name.slice(0, dot), attribute: name.slice(dot + 1) });
        }
      }
      if (variables) referencesIn(variables, found);
      return found;
    }
  }
  for (let i = 0; i < keys.length; i++) referencesIn(object[keys[i]], found);
  return found;
}

export function getAttParts(argument: unknown): [string | undefined, string | undefined] {
  if (typeof argument === 'string') {
    const dot = argument.indexOf('.');
    return dot < 0 ? [argument, undefined] : [argument.slice(0, dot), argument.slice(dot + 1)];
  }
  if (Array.isArray(argument) && typeof argument[0] === 'string') return [argument[0], typeof argument[1] === 'string' ? argument[1] : undefined];
  return [undefined, undefined];
}

export const dependsOnList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);

/**
 * A copy of a value with some references replaced: `replace` returns the expression that
 * stands for a reference here, or undefined to keep it. In `Fn::Sub` text a replaced name
 * becomes a variable of the Sub's map.
 */
export function rewriteReferences(value: unknown, replace: (reference: Reference) => unknown): unknown {
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = rewriteReferences(value[i], replace);
      if (item !== value[i]) items ??= value.slice();
      if (items) items[i] = item;
    }
    return items ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 1) {
    const key = keys[0];
    const argument = object[key];
    if (key === 'Ref' && typeof argument === 'string') {
      return argument.startsWith('AWS::') ? value : (replace({ target: argument }) ?? value);
    }
    if (key === 'Fn::GetAtt') {
      const parts = getAttParts(argument);
      return parts[0] ? (replace({ target: parts[0], attribute: parts[1] }) ?? value) : value;
    }
    if (key === 'Fn::Sub') return rewriteSub(argument, replace) ?? value;
  }
  // Unchanged parts are shared, not copied: most of a template has no reference to rewrite.
  let copy: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const rewritten = rewriteReferences(object[key], replace);
    if (rewritten !== object[key]) copy ??= { ...object };
    if (copy) copy[key] = rewritten;
  }
  return copy ?? value;
}

function rewriteSub(argument: unknown, replace: (reference: Reference) => unknown): unknown {
  const [text, variables] = Array.isArray(argument) ? [argument[0], argument[1] as Record<string, unknown> | undefined] : [argument, undefined];
  if (typeof text !== 'string') return undefined;
  const map: Record<string, unknown> = variables ? (rewriteReferences(variables, replace) as Record<string, unknown>) : {};
  let added = false;
  const rewritten = text.replace(SUB_VARIABLE, (whole, inner: string) => {
    const name = inner.trim();
    if (name.startsWith('AWS::') || (variables && name in variables)) return whole;
    const dot = name.indexOf('.');
    const reference = dot < 0 ? { target: name } : { target: name.slice(0, dot), attribute: name.slice(dot + 1) };
    const replacement = replace(reference);
    if (replacement === undefined) return whole;
    // A parameter of a nested stack is still a plain `${Name}`; anything else goes in the map.
    const plain = replacement as { Ref?: unknown };
    if (Object.keys(replacement as object).length === 1 && typeof plain.Ref === 'string') return `\${${plain.Ref}}`;
    const variable = `${reference.target}${(reference.attribute ?? '').replace(/[^A-Za-z0-9]/g, '')}`;
    map[variable] = replacement;
    added = true;
    return `\${${variable}}`;
  });
  if (!added && !variables) return rewritten === text ? undefined : { 'Fn::Sub': rewritten };
  return { 'Fn::Sub': [rewritten, map] };
}
