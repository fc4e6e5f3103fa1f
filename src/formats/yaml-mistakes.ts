/**
 * The common YAML mistakes in plain words, at the line to fix. The `yaml` library reports where it
 * noticed a problem, in a parser's terms: a key indented one space too far is "Nested mappings are
 * not allowed in compact mappings" on the line above it, an unclosed quote is noticed at the end of
 * the file. Serverless v3 (js-yaml) words them as "bad indentation of a mapping entry", "a colon is
 * missed"; fw says the same things at the line the user must change, and why.
 */

export interface YamlMistake {
  reason: string;
  /** Character offset of the place to fix. */
  offset: number;
}

interface Line {
  number: number;
  start: number;
  text: string;
  indent: number;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  text.split('\n').forEach((raw, index) => {
    const body = raw.replace(/\r$/, '');
    lines.push({ number: index + 1, start, text: body, indent: /^ */.exec(body)![0].length });
    start += raw.length + 1;
  });
  return lines;
}

const meaningful = (line: Line) => line.text.trim() !== '' && !line.text.trimStart().startsWith('#');
/** The key a line starts (`region` of `   region: x`, `runtime` of `  - runtime: x`). */
const keyOf = (line: Line) => /^\s*(?:-\s+)?("[^"]*"|'[^']*'|[^\s:#][^:#]*?)\s*:(?:\s|$)/.exec(line.text)?.[1];
const quoted = (key: string | undefined, fallback: string) => (key ? `"${key.replace(/^["']|["']$/g, '')}"` : fallback);

/** The plain-words reason and place for a library error; undefined keeps the library's words. */
export function explainYamlMistake(text: string, code: string, message: string, offset: number): YamlMistake | undefined {
  const lines = linesOf(text);
  const lineIndex = Math.max(0, lines.findIndex((line, index) => offset >= line.start && (index === lines.length - 1 || offset < lines[index + 1].start)));
  const line = lines[lineIndex];
  const previous = (from: number, test: (candidate: Line) => boolean) => {
    for (let index = from - 1; index >= 0; index--) if (meaningful(lines[index]) && test(lines[index])) return lines[index];
    return undefined;
  };
  const at = (target: Line) => target.start + target.indent;

  if (/^Nested mappings are not allowed in compact mappings/.test(message) || code === 'BAD_INDENT' && /compact/.test(message)) {
    // Noticed on the line whose value is followed by a deeper-indented key: that key is the mistake.
    const deeper = lines.slice(lineIndex + 1).find((candidate) => meaningful(candidate) && candidate.indent > line.indent);
    if (deeper) {
      return {
        reason: `bad indentation of a mapping entry: ${quoted(keyOf(deeper), 'this line')} is indented deeper than ${quoted(keyOf(line), 'the line above it')}, which already has a value (line them up, or give ${quoted(keyOf(line), 'it')} no value on its own line)`,
        offset: at(deeper),
      };
    }
  }
  if (/^All mapping items must start at the same column/.test(message)) {
    const sibling = previous(lineIndex, (candidate) => candidate.indent !== line.indent && keyOf(candidate) !== undefined && !candidate.text.trimStart().startsWith('-'));
    const where = sibling ? ` (${quoted(keyOf(sibling), 'the entry')} above is at column ${sibling.indent + 1}, this one at column ${line.indent + 1})` : '';
    return { reason: `bad indentation of a mapping entry: ${quoted(keyOf(line), 'this line')} does not line up with the entries around it${where}`, offset: at(line) };
  }
  if (/^A block sequence may not be used as an implicit map key/.test(message) && line.text.trimStart().startsWith('-')) {
    const item = previous(lineIndex, (candidate) => candidate.indent <= line.indent + 2);
    if (item?.text.trimStart().startsWith('-')) {
      return { reason: `bad indentation of a list item: its "-" is at column ${line.indent + 1}, the item above it at column ${item.indent + 1}`, offset: at(line) };
    }
    const entry = item && keyOf(item) ? `${quoted(keyOf(item), '')} above is a "key: value" entry, so ` : '';
    return { reason: `a list item among the entries of a mapping: ${entry}this line cannot start with "-" (remove the "-", or put the list under a key of its own)`, offset: at(line) };
  }
  if (/^Implicit map keys need to be followed by map values/.test(message)) {
    const words = /^(\s*(?:-\s+)?)(\S+)(?:\s+(.*))?$/.exec(line.text);
    if (words) {
      const [, lead, first, rest] = words;
      const fix = rest ? ` (write "${first}: ${rest.trim()}")` : '';
      return { reason: `a colon is missing after "${first}": a line in a mapping is "key: value"${fix}`, offset: line.start + lead.length + first.length };
    }
  }
  if (/^Tabs are not allowed as indentation/.test(message) || /tab/i.test(message) && /indent/i.test(message)) {
    return { reason: 'tab characters must not be used in indentation: indent with spaces', offset: line.start };
  }
  if (code === 'MISSING_CHAR' && /quote/.test(message)) {
    const kind = /'quote/.test(message) ? 'single-quoted' : 'double-quoted';
    const mark = kind === 'single-quoted' ? "'" : '"';
    return { reason: `the ${kind} string that starts here is never closed: add the closing ${mark} (to put a ${mark} inside it, ${kind === 'single-quoted' ? "write ''" : 'write \\"'})`, offset };
  }
  const flow = /^Flow (sequence|map) in block collection/.exec(message);
  if (flow) {
    const [open, close, what] = flow[1] === 'sequence' ? ['[', ']', 'list'] : ['{', '}', 'mapping'];
    return { reason: `the ${what} opened with "${open}" here is never closed: end it with "${close}" (a line that goes on must be indented deeper than its key)`, offset };
  }
  return undefined;
}
