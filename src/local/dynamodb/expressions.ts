/**
 * DynamoDB's expression language: condition, filter and key condition expressions,
 * projection expressions and update expressions, parsed into small trees and
 * evaluated against items. `#name` and `:value` placeholders are resolved while
 * parsing, and every placeholder used is recorded so that unused ones can be refused.
 */
import { RESERVED_WORDS } from './reserved-words';
import { addNumbers, canonicalNumber, compareScalars, equalValues, typeOf, validation, type AttributeValue, type Item } from './values';

export type PathSegment = string | number;
export type Path = PathSegment[];

export type Operand =
  | { kind: 'path'; path: Path }
  | { kind: 'value'; value: AttributeValue }
  | { kind: 'size'; path: Path }
  | { kind: 'if_not_exists'; path: Path; fallback: Operand }
  | { kind: 'list_append'; left: Operand; right: Operand }
  | { kind: 'arithmetic'; sign: 1 | -1; left: Operand; right: Operand };

export type Comparator = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type Condition =
  | { kind: 'compare'; comparator: Comparator; left: Operand; right: Operand }
  | { kind: 'between'; operand: Operand; low: Operand; high: Operand }
  | { kind: 'in'; operand: Operand; candidates: Operand[] }
  | { kind: 'function'; name: 'attribute_exists' | 'attribute_not_exists'; path: Path }
  | { kind: 'function'; name: 'attribute_type' | 'begins_with' | 'contains'; path: Path; operand: Operand }
  | { kind: 'and' | 'or'; left: Condition; right: Condition }
  | { kind: 'not'; condition: Condition };

export interface UpdateActions {
  set: { path: Path; value: Operand }[];
  remove: Path[];
  add: { path: Path; value: Operand }[];
  delete: { path: Path; value: Operand }[];
}

/** The placeholders of one request, shared by its expressions, and which of them were used. */
export class Placeholders {
  readonly usedNames = new Set<string>();
  readonly usedValues = new Set<string>();

  constructor(
    private readonly names: Record<string, string> = {},
    private readonly values: Record<string, AttributeValue> = {},
  ) {}

  name(token: string, expression: string): string {
    const name = this.names[token];
    if (name === undefined) throw validation(`Invalid ${expression}: An expression attribute name used in the document path is not defined; attribute name: ${token}`);
    this.usedNames.add(token);
    return name;
  }

  value(token: string, expression: string): AttributeValue {
    const value = this.values[token];
    if (value === undefined) throw validation(`Invalid ${expression}: An expression attribute value used in expression is not defined; attribute value: ${token}`);
    this.usedValues.add(token);
    return value;
  }

  /** DynamoDB refuses placeholders that no expression of the request used. */
  checkAllUsed(): void {
    const unusedNames = Object.keys(this.names).filter((name) => !this.usedNames.has(name));
    if (unusedNames.length) throw validation(`Value provided in ExpressionAttributeNames unused in expressions: keys: {${unusedNames.join(', ')}}`);
    const unusedValues = Object.keys(this.values).filter((value) => !this.usedValues.has(value));
    if (unusedValues.length) throw validation(`Value provided in ExpressionAttributeValues unused in expressions: keys: {${unusedValues.join(', ')}}`);
  }
}

const TOKEN = /\s*(?:(<>|<=|>=|[=<>()[\],.+-])|(#[A-Za-z0-9_]+)|(:[A-Za-z0-9_]+)|(\d+)|([A-Za-z_][A-Za-z0-9_]*))/y;

class Parser {
  private readonly tokens: string[] = [];
  private position = 0;

  constructor(
    text: string,
    private readonly expression: string,
    private readonly placeholders: Placeholders,
  ) {
    if (text.trim() === '') throw validation(`Invalid ${expression}: The expression can not be empty;`);
    TOKEN.lastIndex = 0;
    while (TOKEN.lastIndex < text.length && text.slice(TOKEN.lastIndex).trim() !== '') {
      const start = TOKEN.lastIndex;
      const match = TOKEN.exec(text);
      if (!match) {
        const bad = text.slice(start).trim()[0];
        throw validation(`Invalid ${expression}: Syntax error; token: "${bad}", near: "${text.slice(start).trim().slice(0, 3)}"`);
      }
      this.tokens.push(match.slice(1).find((group) => group !== undefined)!);
    }
  }

  private peek(): string | undefined {
    return this.tokens[this.position];
  }

  private keyword(word: string): boolean {
    if (this.peek()?.toUpperCase() !== word) return false;
    this.position += 1;
    return true;
  }

  private syntaxError(): never {
    const token = this.peek();
    if (token === undefined) throw validation(`Invalid ${this.expression}: Syntax error; token: "<EOF>", near: "${this.tokens.slice(-2).join(' ')}"`);
    throw validation(`Invalid ${this.expression}: Syntax error; token: "${token}", near: "${this.tokens.slice(Math.max(0, this.position - 1), this.position + 2).join(' ')}"`);
  }

  private expect(token: string): void {
    if (this.peek() !== token) this.syntaxError();
    this.position += 1;
  }

  end(): void {
    if (this.position < this.tokens.length) this.syntaxError();
  }

  path(): Path {
    const path: Path = [this.pathName()];
    for (;;) {
      if (this.peek() === '.') {
        this.position += 1;
        path.push(this.pathName());
      } else if (this.peek() === '[') {
        this.position += 1;
        const index = this.peek();
        if (index === undefined || !/^\d+$/.test(index)) this.syntaxError();
        this.position += 1;
        this.expect(']');
        path.push(Number(index));
      } else return path;
    }
  }

  private pathName(): string {
    const token = this.peek();
    if (token === undefined || !/^[#A-Za-z_]/.test(token)) this.syntaxError();
    this.position += 1;
    if (token.startsWith('#')) return this.placeholders.name(token, this.expression);
    if (RESERVED_WORDS.has(token.toUpperCase())) throw validation(`Invalid ${this.expression}: Attribute name is a reserved keyword; reserved keyword: ${token}`);
    return token;
  }

  private call(name: string): boolean {
    if (this.peek()?.toLowerCase() !== name || this.tokens[this.position + 1] !== '(') return false;
    this.position += 2;
    return true;
  }

  operand(): Operand {
    const token = this.peek();
    if (token?.startsWith(':')) {
      this.position += 1;
      return { kind: 'value', value: this.placeholders.value(token, this.expression) };
    }
    if (this.call('size')) {
      const path = this.path();
      this.expect(')');
      return { kind: 'size', path };
    }
    return { kind: 'path', path: this.path() };
  }

  /** OR binds loosest, then AND, then NOT, as DynamoDB's precedence table says. */
  condition(): Condition {
    let left = this.conjunction();
    while (this.keyword('OR')) left = { kind: 'or', left, right: this.conjunction() };
    return left;
  }

  private conjunction(): Condition {
    let left = this.negation();
    while (this.keyword('AND')) left = { kind: 'and', left, right: this.negation() };
    return left;
  }

  private negation(): Condition {
    if (this.keyword('NOT')) return { kind: 'not', condition: this.negation() };
    return this.predicate();
  }

  private predicate(): Condition {
    if (this.peek() === '(') {
      this.position += 1;
      const inner = this.condition();
      this.expect(')');
      return inner;
    }
    for (const name of ['attribute_exists', 'attribute_not_exists'] as const) {
      if (this.call(name)) {
        const path = this.path();
        this.expect(')');
        return { kind: 'function', name, path };
      }
    }
    for (const name of ['attribute_type', 'begins_with', 'contains'] as const) {
      if (this.call(name)) {
        const path = this.path();
        this.expect(',');
        const operand = this.operand();
        this.expect(')');
        return { kind: 'function', name, path, operand };
      }
    }
    const left = this.operand();
    const token = this.peek();
    if (token === '=' || token === '<>' || token === '<' || token === '<=' || token === '>' || token === '>=') {
      this.position += 1;
      return { kind: 'compare', comparator: token, left, right: this.operand() };
    }
    if (this.keyword('BETWEEN')) {
      const low = this.operand();
      if (!this.keyword('AND')) this.syntaxError();
      return { kind: 'between', operand: left, low, high: this.operand() };
    }
    if (this.keyword('IN')) {
      this.expect('(');
      const candidates = [this.operand()];
      while (this.peek() === ',') {
        this.position += 1;
        candidates.push(this.operand());
      }
      this.expect(')');
      return { kind: 'in', operand: left, candidates };
    }
    return this.syntaxError();
  }

  private updateValue(): Operand {
    const left = this.updateOperand();
    if (this.peek() === '+' || this.peek() === '-') {
      const sign = this.peek() === '+' ? 1 : -1;
      this.position += 1;
      return { kind: 'arithmetic', sign, left, right: this.updateOperand() };
    }
    return left;
  }

  private updateOperand(): Operand {
    if (this.call('if_not_exists')) {
      const path = this.path();
      this.expect(',');
      const fallback = this.updateOperand();
      this.expect(')');
      return { kind: 'if_not_exists', path, fallback };
    }
    if (this.call('list_append')) {
      const left = this.updateOperand();
      this.expect(',');
      const right = this.updateOperand();
      this.expect(')');
      return { kind: 'list_append', left, right };
    }
    const token = this.peek();
    if (token?.startsWith(':')) {
      this.position += 1;
      return { kind: 'value', value: this.placeholders.value(token, this.expression) };
    }
    return { kind: 'path', path: this.path() };
  }

  update(): UpdateActions {
    const actions: UpdateActions = { set: [], remove: [], add: [], delete: [] };
    const seen = new Set<string>();
    while (this.peek() !== undefined) {
      const clause = this.peek()!.toUpperCase();
      if (!['SET', 'REMOVE', 'ADD', 'DELETE'].includes(clause)) this.syntaxError();
      if (seen.has(clause)) throw validation(`Invalid UpdateExpression: The "${clause}" section can only be used once in an update expression;`);
      seen.add(clause);
      this.position += 1;
      do {
        if (clause === 'SET') {
          const path = this.path();
          this.expect('=');
          actions.set.push({ path, value: this.updateValue() });
        } else if (clause === 'REMOVE') actions.remove.push(this.path());
        else {
          const path = this.path();
          const token = this.peek();
          if (!token?.startsWith(':')) this.syntaxError();
          this.position += 1;
          const value: Operand = { kind: 'value', value: this.placeholders.value(token, this.expression) };
          (clause === 'ADD' ? actions.add : actions.delete).push({ path, value });
        }
      } while (this.peek() === ',' && ++this.position);
    }
    return actions;
  }

  projection(): Path[] {
    const paths = [this.path()];
    while (this.peek() === ',') {
      this.position += 1;
      paths.push(this.path());
    }
    return paths;
  }
}

export function parseCondition(text: string, expression: string, placeholders: Placeholders): Condition {
  const parser = new Parser(text, expression, placeholders);
  const condition = parser.condition();
  parser.end();
  return condition;
}

export function parseProjection(text: string, placeholders: Placeholders): Path[] {
  const parser = new Parser(text, 'ProjectionExpression', placeholders);
  const paths = parser.projection();
  parser.end();
  return paths;
}

export function parseUpdate(text: string, placeholders: Placeholders): UpdateActions {
  const parser = new Parser(text, 'UpdateExpression', placeholders);
  const actions = parser.update();
  parser.end();
  const paths = [...actions.set, ...actions.add, ...actions.delete].map((action) => action.path).concat(actions.remove);
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const [shorter, longer] = paths[i].length <= paths[j].length ? [paths[i], paths[j]] : [paths[j], paths[i]];
      if (shorter.every((segment, index) => segment === longer[index])) {
        throw validation(`Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [${paths[i].join(', ')}], path two: [${paths[j].join(', ')}]`);
      }
    }
  }
  return actions;
}

/** The top-level attribute names a condition reads. */
export function conditionAttributes(condition: Condition): string[] {
  const ofOperand = (operand: Operand): string[] => {
    if (operand.kind === 'value') return [];
    if (operand.kind === 'path' || operand.kind === 'size') return [String(operand.path[0])];
    if (operand.kind === 'if_not_exists') return [String(operand.path[0]), ...ofOperand(operand.fallback)];
    return [...ofOperand(operand.left), ...ofOperand(operand.right)];
  };
  switch (condition.kind) {
    case 'and':
    case 'or':
      return [...conditionAttributes(condition.left), ...conditionAttributes(condition.right)];
    case 'not':
      return conditionAttributes(condition.condition);
    case 'compare':
      return [...ofOperand(condition.left), ...ofOperand(condition.right)];
    case 'between':
      return [condition.operand, condition.low, condition.high].flatMap(ofOperand);
    case 'in':
      return [condition.operand, ...condition.candidates].flatMap(ofOperand);
    case 'function':
      return [String(condition.path[0]), ...('operand' in condition ? ofOperand(condition.operand) : [])];
  }
}

export function resolvePath(item: Item, path: Path): AttributeValue | undefined {
  let value: AttributeValue | undefined = { M: item };
  for (const segment of path) {
    if (value === undefined) return undefined;
    if (typeof segment === 'number') value = value.L?.[segment];
    else value = value.M && Object.hasOwn(value.M, segment) ? value.M[segment] : undefined;
  }
  return value;
}

function sizeOf(value: AttributeValue): number | undefined {
  if (value.S !== undefined) return value.S.length;
  if (value.B !== undefined) return Buffer.from(value.B, 'base64').length;
  const collection = value.SS ?? value.NS ?? value.BS ?? value.L;
  if (collection) return collection.length;
  if (value.M) return Object.keys(value.M).length;
  return undefined;
}

function operandValue(operand: Operand, item: Item): AttributeValue | undefined {
  switch (operand.kind) {
    case 'value':
      return operand.value;
    case 'path':
      return resolvePath(item, operand.path);
    case 'size': {
      const value = resolvePath(item, operand.path);
      const size = value && sizeOf(value);
      return size === undefined ? undefined : { N: String(size) };
    }
    case 'if_not_exists':
      return resolvePath(item, operand.path) ?? operandValue(operand.fallback, item);
    case 'list_append': {
      const left = operandValue(operand.left, item);
      const right = operandValue(operand.right, item);
      if (left === undefined || right === undefined) throw validation('The provided expression refers to an attribute that does not exist in the item');
      if (!left.L || !right.L) {
        throw validation(`Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: ${typeOf(left.L ? right : left)}`);
      }
      return { L: [...left.L, ...right.L] };
    }
    case 'arithmetic': {
      const left = operandValue(operand.left, item);
      const right = operandValue(operand.right, item);
      if (left === undefined || right === undefined) throw validation('The provided expression refers to an attribute that does not exist in the item');
      if (left.N === undefined || right.N === undefined) throw validation('An operand in the update expression has an incorrect data type');
      return { N: addNumbers(left.N, right.N, operand.sign) };
    }
  }
}

function compare(comparator: Comparator, left: AttributeValue | undefined, right: AttributeValue | undefined): boolean {
  if (left === undefined || right === undefined) return comparator === '<>' && left !== right;
  if (comparator === '=') return equalValues(left, right);
  if (comparator === '<>') return !equalValues(left, right);
  const order = compareScalars(left, right);
  if (order === undefined) return false;
  return comparator === '<' ? order < 0 : comparator === '<=' ? order <= 0 : comparator === '>' ? order > 0 : order >= 0;
}

function contains(container: AttributeValue, member: AttributeValue): boolean {
  if (container.S !== undefined) return member.S !== undefined && container.S.includes(member.S);
  if (container.B !== undefined) return member.B !== undefined && Buffer.from(container.B, 'base64').includes(Buffer.from(member.B, 'base64'));
  if (container.SS) return member.S !== undefined && container.SS.includes(member.S);
  if (container.NS) return member.N !== undefined && container.NS.some((number) => canonicalNumber(number) === canonicalNumber(member.N!));
  if (container.BS) return member.B !== undefined && container.BS.includes(member.B);
  if (container.L) return container.L.some((element) => equalValues(element, member));
  return false;
}

export function evaluate(condition: Condition, item: Item): boolean {
  switch (condition.kind) {
    case 'and':
      return evaluate(condition.left, item) && evaluate(condition.right, item);
    case 'or':
      return evaluate(condition.left, item) || evaluate(condition.right, item);
    case 'not':
      return !evaluate(condition.condition, item);
    case 'compare':
      return compare(condition.comparator, operandValue(condition.left, item), operandValue(condition.right, item));
    case 'between': {
      const value = operandValue(condition.operand, item);
      return compare('>=', value, operandValue(condition.low, item)) && compare('<=', value, operandValue(condition.high, item));
    }
    case 'in': {
      const value = operandValue(condition.operand, item);
      return condition.candidates.some((candidate) => compare('=', value, operandValue(candidate, item)));
    }
    case 'function': {
      const value = resolvePath(item, condition.path);
      if (condition.name === 'attribute_exists') return value !== undefined;
      if (condition.name === 'attribute_not_exists') return value === undefined;
      if (!('operand' in condition)) return false;
      const operand = operandValue(condition.operand, item);
      if (value === undefined || operand === undefined) return false;
      if (condition.name === 'attribute_type') {
        if (operand.S === undefined) throw validation('Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: attribute_type, operand type: ' + typeOf(operand));
        return typeOf(value) === operand.S;
      }
      if (condition.name === 'begins_with') {
        if (value.S !== undefined && operand.S !== undefined) return value.S.startsWith(operand.S);
        if (value.B !== undefined && operand.B !== undefined) return Buffer.from(value.B, 'base64').subarray(0, Buffer.from(operand.B, 'base64').length).equals(Buffer.from(operand.B, 'base64'));
        return false;
      }
      return contains(value, operand);
    }
  }
}

/** An item holding only the projected paths (list elements keep their order, not their index). */
export function project(item: Item, paths: Path[]): Item {
  const result: { M: Item } = { M: {} };
  for (const path of paths) {
    const value = resolvePath(item, path);
    if (value === undefined) continue;
    let target: AttributeValue = result;
    let source: AttributeValue = { M: item };
    path.forEach((segment, index) => {
      const last = index === path.length - 1;
      if (typeof segment === 'number') {
        source = source.L![segment];
        const holder = target as AttributeValue & { indexes?: number[] };
        target.L ??= [];
        holder.indexes ??= [];
        let at = holder.indexes.indexOf(segment);
        if (at < 0) {
          at = holder.indexes.filter((existing) => existing < segment).length;
          holder.indexes.splice(at, 0, segment);
          target.L.splice(at, 0, last ? source : Array.isArray(source.L) ? { L: [] } : { M: {} });
        }
        target = target.L[at];
      } else {
        source = source.M![segment];
        target.M ??= {};
        if (last) target.M[segment] = source;
        else target.M[segment] ??= source.L ? { L: [] } : { M: {} };
        target = target.M[segment];
      }
    });
  }
  return JSON.parse(JSON.stringify(result.M, (key, value) => (key === 'indexes' ? undefined : value))) as Item;
}

function setAt(item: Item, path: Path, value: AttributeValue | undefined): void {
  let parent: AttributeValue = { M: item };
  for (const segment of path.slice(0, -1)) {
    const next: AttributeValue | undefined = typeof segment === 'number' ? parent.L?.[segment] : parent.M?.[segment];
    if (next === undefined) throw validation('The document path provided in the update expression is invalid for update');
    parent = next;
  }
  const last = path[path.length - 1];
  if (typeof last === 'number') {
    if (!parent.L) throw validation('The document path provided in the update expression is invalid for update');
    if (value === undefined) {
      if (last < parent.L.length) parent.L.splice(last, 1);
    } else if (last >= parent.L.length) parent.L.push(value);
    else parent.L[last] = value;
  } else {
    if (!parent.M) throw validation('The document path provided in the update expression is invalid for update');
    if (value === undefined) delete parent.M[last];
    else parent.M[last] = value;
  }
}

function setMembers(value: AttributeValue): { type: 'SS' | 'NS' | 'BS'; members: string[] } | undefined {
  for (const type of ['SS', 'NS', 'BS'] as const) if (value[type]) return { type, members: value[type]! };
  return undefined;
}

const memberKey = (type: 'SS' | 'NS' | 'BS', member: string) => (type === 'NS' ? canonicalNumber(member) : member);

/** The item after an update; operands read the item as it was before any action, as DynamoDB does. */
export function applyUpdate(before: Item, actions: UpdateActions): Item {
  const after = structuredClone(before);
  const values = actions.set.map((action) => operandValue(action.value, before)!);
  actions.set.forEach((action, index) => setAt(after, action.path, values[index]));
  for (const action of actions.add) {
    const existing = resolvePath(before, action.path);
    const value = operandValue(action.value, before)!;
    const set = setMembers(value);
    if (value.N !== undefined) {
      if (existing !== undefined && existing.N === undefined) throw validation('An operand in the update expression has an incorrect data type');
      setAt(after, action.path, { N: existing ? addNumbers(existing.N!, value.N) : value.N });
    } else if (set) {
      const current = existing && setMembers(existing);
      if (existing !== undefined && current?.type !== set.type) throw validation('An operand in the update expression has an incorrect data type');
      const members = [...(current?.members ?? [])];
      const keys = new Set(members.map((member) => memberKey(set.type, member)));
      for (const member of set.members) if (!keys.has(memberKey(set.type, member))) members.push(member);
      setAt(after, action.path, { [set.type]: members });
    } else {
      throw validation(`Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: ${typeOf(value) === 'S' ? 'STRING' : typeOf(value)}`);
    }
  }
  for (const action of actions.delete) {
    const existing = resolvePath(before, action.path);
    const value = operandValue(action.value, before)!;
    const set = setMembers(value);
    if (!set) throw validation(`Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: ${typeOf(value) === 'S' ? 'STRING' : typeOf(value)}`);
    if (existing === undefined) continue;
    const current = setMembers(existing);
    if (current?.type !== set.type) throw validation('An operand in the update expression has an incorrect data type');
    const removed = new Set(set.members.map((member) => memberKey(set.type, member)));
    const members = current.members.filter((member) => !removed.has(memberKey(set.type, member)));
    setAt(after, action.path, members.length ? { [set.type]: members } : undefined);
  }
  // Higher list indexes first, so removing one element does not shift the next one removed.
  const listIndex = (path: Path) => (typeof path[path.length - 1] === 'number' ? (path[path.length - 1] as number) : -1);
  const removals = [...actions.remove].sort((a, b) => listIndex(b) - listIndex(a));
  for (const path of removals) setAt(after, path, undefined);
  return after;
}

/** The paths an update changes, for ReturnValues UPDATED_OLD / UPDATED_NEW. */
export function updatedPaths(actions: UpdateActions): Path[] {
  return [...actions.set, ...actions.add, ...actions.delete].map((action) => action.path).concat(actions.remove);
}
