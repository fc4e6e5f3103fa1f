/**
 * PartiQL for DynamoDB: ExecuteStatement, BatchExecuteStatement and ExecuteTransaction.
 *
 * A statement is parsed into a small tree, then written out as the expression request
 * the rest of the table code answers (a Query or Scan with #name and :value placeholders,
 * a PutItem, UpdateItem or DeleteItem plan), so that PartiQL and the expression API share
 * one evaluation, one set of checks and one write path (streams included).
 */
import { AwsError } from '../protocol/errors';
import { conditionAttributes, type Comparator, type Condition, type Operand as ExpressionOperand, type PathSegment } from './expressions';
import { getItem, query, scan } from './reads';
import { CONDITION_FAILED, DynamoDbError, tableOf } from './requests';
import type { KeyNames, TableStore } from './tables';
import { validation, type AttributeValue, type Item } from './values';
import { commit, planWrite, type PlannedWrite, type WriteKind } from './writes';

type Segment = PathSegment;
/** A WHERE clause is a tree of DynamoDB's own condition language (`IS MISSING` is `attribute_not_exists`). */
type Cond = Condition;
/** An operand of a condition or of a SET's value, as DynamoDB's expressions have them. */
type Value = ExpressionOperand;
type Operand = Extract<Value, { kind: 'path' | 'value' | 'size' }>;
type Assignment = { action: 'SET' | 'ADD' | 'DELETE'; path: Segment[]; value: Value } | { action: 'REMOVE'; path: Segment[] };

type Statement =
  | { kind: 'select'; table: string; index?: string; paths?: Segment[][]; where?: Cond; order: { name: string; descending: boolean }[] }
  | { kind: 'insert'; table: string; item: Item }
  | { kind: 'update'; table: string; assignments: Assignment[]; where: Cond; returning?: string }
  | { kind: 'delete'; table: string; where: Cond; returning?: string }
  | { kind: 'exists'; table: string; where: Cond };

const malformed = (detail: string) => validation(`Statement wasn't well formed, can't be processed: ${detail}`);

type Token = { type: 'word' | 'quoted' | 'string' | 'number' | 'symbol'; text: string };

const SYMBOLS = ['<<', '>>', '<>', '!=', '<=', '>=', '(', ')', '[', ']', '{', '}', ',', '.', ':', '?', '*', '=', '<', '>', '+', '-'];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  while (position < text.length) {
    const character = text[position];
    if (/\s/.test(character)) {
      position += 1;
    } else if (character === "'" || character === '"') {
      // A quote inside is written twice ('it''s', "a""b").
      let value = '';
      let end = position + 1;
      for (;;) {
        if (end >= text.length) throw malformed(`Unterminated ${character === "'" ? 'string literal' : 'quoted identifier'}`);
        if (text[end] === character) {
          if (text[end + 1] !== character) break;
          end += 1;
        }
        value += text[end];
        end += 1;
      }
      tokens.push({ type: character === "'" ? 'string' : 'quoted', text: value });
      position = end + 1;
    } else if (/[0-9]/.test(character) || (character === '.' && /[0-9]/.test(text[position + 1] ?? ''))) {
      const match = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(position))!;
      tokens.push({ type: 'number', text: match[0] });
      position += match[0].length;
    } else if (/[A-Za-z_]/.test(character)) {
      const match = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(text.slice(position))!;
      tokens.push({ type: 'word', text: match[0] });
      position += match[0].length;
    } else {
      const symbol = SYMBOLS.find((candidate) => text.startsWith(candidate, position));
      if (!symbol) throw malformed(`Unexpected character '${character}'`);
      tokens.push({ type: 'symbol', text: symbol });
      position += symbol.length;
    }
  }
  return tokens;
}

class StatementParser {
  private position = 0;
  private parameterIndex = 0;
  private readonly tokens: Token[];

  constructor(
    text: string,
    private readonly parameters: AttributeValue[],
  ) {
    this.tokens = tokenize(text);
  }

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.position + offset];
  }

  private isKeyword(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.type === 'word' && token.text.toUpperCase() === word;
  }

  private isSymbol(symbol: string): boolean {
    const token = this.peek();
    return token?.type === 'symbol' && token.text === symbol;
  }

  private acceptKeyword(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.position += 1;
    return true;
  }

  private acceptSymbol(symbol: string): boolean {
    if (!this.isSymbol(symbol)) return false;
    this.position += 1;
    return true;
  }

  private expectKeyword(word: string): void {
    if (!this.acceptKeyword(word)) throw this.unexpected(`expected ${word}`);
  }

  private expectSymbol(symbol: string): void {
    if (!this.acceptSymbol(symbol)) throw this.unexpected(`expected '${symbol}'`);
  }

  private unexpected(expected: string): AwsError {
    const token = this.peek();
    return malformed(token ? `Unexpected ${token.type === 'word' ? 'keyword or identifier' : 'token'} '${token.text}', ${expected}` : `Unexpected end of statement, ${expected}`);
  }

  statement(): Statement {
    const statement = this.statementBody();
    if (this.peek()) throw this.unexpected('expected the end of the statement');
    if (this.parameterIndex !== this.parameters.length) throw validation("Number of parameters in request and statement don't match.");
    return statement;
  }

  private statementBody(): Statement {
    if (this.acceptKeyword('SELECT')) return this.select();
    if (this.acceptKeyword('INSERT')) {
      this.expectKeyword('INTO');
      const table = this.name();
      this.expectKeyword('VALUE');
      const item = this.literal();
      if (!item.M) throw malformed('INSERT expects a tuple ({ ... }) as its VALUE');
      return { kind: 'insert', table, item: item.M };
    }
    if (this.acceptKeyword('UPDATE')) return this.update();
    if (this.acceptKeyword('DELETE')) {
      this.expectKeyword('FROM');
      const table = this.name();
      this.expectKeyword('WHERE');
      const where = this.condition();
      return { kind: 'delete', table, where, returning: this.returning(['ALL OLD']) };
    }
    if (this.acceptKeyword('EXISTS')) {
      this.expectSymbol('(');
      this.expectKeyword('SELECT');
      const select = this.select();
      this.expectSymbol(')');
      if (select.kind !== 'select' || !select.where) throw malformed('EXISTS needs a SELECT with a WHERE clause');
      return { kind: 'exists', table: select.table, where: select.where };
    }
    throw this.unexpected('expected SELECT, INSERT, UPDATE, DELETE or EXISTS');
  }

  private select(): Statement {
    let paths: Segment[][] | undefined;
    if (!this.acceptSymbol('*')) {
      paths = [this.path()];
      while (this.acceptSymbol(',')) paths.push(this.path());
    }
    this.expectKeyword('FROM');
    const table = this.name();
    const index = this.acceptSymbol('.') ? this.name() : undefined;
    const where = this.acceptKeyword('WHERE') ? this.condition() : undefined;
    const order: { name: string; descending: boolean }[] = [];
    if (this.acceptKeyword('ORDER')) {
      this.expectKeyword('BY');
      do {
        const name = this.name();
        const descending = this.acceptKeyword('DESC');
        if (!descending) this.acceptKeyword('ASC');
        order.push({ name, descending });
      } while (this.acceptSymbol(','));
    }
    return { kind: 'select', table, index, paths, where, order };
  }

  private update(): Statement {
    const table = this.name();
    const assignments: Assignment[] = [];
    for (;;) {
      if (this.acceptKeyword('SET')) {
        do assignments.push(this.assignment());
        while (this.acceptSymbol(','));
      } else if (this.acceptKeyword('REMOVE')) {
        do assignments.push({ action: 'REMOVE', path: this.path() });
        while (this.acceptSymbol(','));
      } else break;
    }
    if (assignments.length === 0) throw this.unexpected('expected SET or REMOVE');
    this.expectKeyword('WHERE');
    const where = this.condition();
    return { kind: 'update', table, assignments, where, returning: this.returning(['ALL OLD', 'MODIFIED OLD', 'ALL NEW', 'MODIFIED NEW']) };
  }

  /** `path = value`, where set_add/set_delete become ADD and DELETE actions. */
  private assignment(): Assignment {
    const path = this.path();
    this.expectSymbol('=');
    for (const [fn, action] of [['SET_ADD', 'ADD'], ['SET_DELETE', 'DELETE']] as const) {
      if (this.isKeyword(fn) && this.peek(1)?.text === '(') {
        this.position += 2;
        const target = this.path();
        if (target.join('.') !== path.join('.')) throw malformed(`${fn.toLowerCase()} must name the attribute it assigns`);
        this.expectSymbol(',');
        const value = this.operand();
        this.expectSymbol(')');
        return { action, path, value };
      }
    }
    return { action: 'SET', path, value: this.value() };
  }

  private value(): Value {
    let left: Value = this.valueTerm();
    while (this.isSymbol('+') || this.isSymbol('-')) {
      const sign = this.peek()!.text === '+' ? 1 : -1;
      this.position += 1;
      left = { kind: 'arithmetic', sign, left, right: this.valueTerm() };
    }
    return left;
  }

  private valueTerm(): Value {
    if (this.isKeyword('LIST_APPEND') && this.peek(1)?.text === '(') {
      this.position += 2;
      const left = this.value();
      this.expectSymbol(',');
      const right = this.value();
      this.expectSymbol(')');
      return { kind: 'list_append', left, right };
    }
    if (this.isKeyword('IF_NOT_EXISTS') && this.peek(1)?.text === '(') {
      this.position += 2;
      const path = this.path();
      this.expectSymbol(',');
      const fallback = this.value();
      this.expectSymbol(')');
      return { kind: 'if_not_exists', path, fallback };
    }
    return this.operand();
  }

  private returning(allowed: string[]): string | undefined {
    if (!this.acceptKeyword('RETURNING')) return undefined;
    const first = this.peek()?.text.toUpperCase();
    const second = this.peek(1)?.text.toUpperCase();
    const choice = `${first} ${second}`;
    if (!allowed.includes(choice)) throw this.unexpected(`expected ${allowed.join(', ')}`);
    this.position += 2;
    this.expectSymbol('*');
    return choice;
  }

  /** A table, index or attribute name: "quoted" (any characters) or bare. */
  private name(): string {
    const token = this.peek();
    if (token?.type !== 'quoted' && token?.type !== 'word') throw this.unexpected('expected a name');
    this.position += 1;
    return token.text;
  }

  private path(): Segment[] {
    const path: Segment[] = [this.name()];
    for (;;) {
      if (this.isSymbol('.') && (this.peek(1)?.type === 'word' || this.peek(1)?.type === 'quoted')) {
        this.position += 1;
        path.push(this.name());
      } else if (this.acceptSymbol('[')) {
        const token = this.peek();
        if (token?.type !== 'number' || !/^\d+$/.test(token.text)) throw this.unexpected('expected a list index');
        this.position += 1;
        path.push(Number(token.text));
        this.expectSymbol(']');
      } else return path;
    }
  }

  private condition(): Cond {
    let left = this.conjunction();
    while (this.acceptKeyword('OR')) left = { kind: 'or', left, right: this.conjunction() };
    return left;
  }

  private conjunction(): Cond {
    let left = this.negation();
    while (this.acceptKeyword('AND')) left = { kind: 'and', left, right: this.negation() };
    return left;
  }

  private negation(): Cond {
    if (this.acceptKeyword('NOT')) return { kind: 'not', condition: this.negation() };
    return this.predicate();
  }

  private predicate(): Cond {
    if (this.acceptSymbol('(')) {
      const inner = this.condition();
      this.expectSymbol(')');
      return inner;
    }
    for (const name of ['BEGINS_WITH', 'CONTAINS', 'ATTRIBUTE_TYPE']) {
      if (this.isKeyword(name) && this.peek(1)?.text === '(') {
        this.position += 2;
        const path = this.path();
        this.expectSymbol(',');
        const operand = this.operand();
        this.expectSymbol(')');
        return { kind: 'function', name: name.toLowerCase() as 'begins_with' | 'contains' | 'attribute_type', path, operand };
      }
    }
    const operand = this.operand();
    if (this.acceptKeyword('IS')) {
      const negated = this.acceptKeyword('NOT');
      if (operand.kind !== 'path') throw malformed('IS needs an attribute on its left');
      if (this.acceptKeyword('MISSING')) return { kind: 'function', name: negated ? 'attribute_exists' : 'attribute_not_exists', path: operand.path };
      if (this.acceptKeyword('NULL')) {
        const isNull: Cond = { kind: 'function', name: 'attribute_type', path: operand.path, operand: { kind: 'value', value: { S: 'NULL' } } };
        return negated ? { kind: 'not', condition: isNull } : isNull;
      }
      throw this.unexpected('expected MISSING or NULL');
    }
    if (this.acceptKeyword('BETWEEN')) {
      const low = this.operand();
      this.expectKeyword('AND');
      return { kind: 'between', operand, low, high: this.operand() };
    }
    if (this.acceptKeyword('IN')) {
      const close = this.acceptSymbol('[') ? ']' : (this.expectSymbol('('), ')');
      const candidates = [this.operand()];
      while (this.acceptSymbol(',')) candidates.push(this.operand());
      this.expectSymbol(close);
      return { kind: 'in', operand, candidates };
    }
    const token = this.peek();
    const comparator = token?.type === 'symbol' && ['=', '<>', '!=', '<', '<=', '>', '>='].includes(token.text) ? token.text : undefined;
    if (!comparator) throw this.unexpected('expected a comparison');
    this.position += 1;
    return { kind: 'compare', comparator: (comparator === '!=' ? '<>' : comparator) as Comparator, left: operand, right: this.operand() };
  }

  private operand(): Operand {
    if (this.isKeyword('SIZE') && this.peek(1)?.text === '(') {
      this.position += 2;
      const path = this.path();
      this.expectSymbol(')');
      return { kind: 'size', path };
    }
    const token = this.peek();
    if (token?.type === 'quoted' || (token?.type === 'word' && !['TRUE', 'FALSE', 'NULL', 'MISSING'].includes(token.text.toUpperCase()))) return { kind: 'path', path: this.path() };
    return { kind: 'value', value: this.literal() };
  }

  /** A value: a parameter, a string, number, boolean or null, or a list, tuple (map) or bag (set) of them. */
  private literal(): AttributeValue {
    const token = this.peek();
    if (!token) throw this.unexpected('expected a value');
    if (this.acceptSymbol('?')) {
      const value = this.parameters[this.parameterIndex++];
      if (value === undefined) throw validation("Number of parameters in request and statement don't match.");
      return value;
    }
    if (token.type === 'string') {
      this.position += 1;
      return { S: token.text };
    }
    if (token.type === 'number' || (token.text === '-' && this.peek(1)?.type === 'number')) {
      const negative = this.acceptSymbol('-');
      this.position += 1;
      return { N: `${negative ? '-' : ''}${this.peek(-1)!.text}` };
    }
    if (token.type === 'word') {
      const word = token.text.toUpperCase();
      this.position += 1;
      if (word === 'TRUE' || word === 'FALSE') return { BOOL: word === 'TRUE' };
      if (word === 'NULL') return { NULL: true };
      throw malformed(`Unexpected keyword or identifier '${token.text}', expected a value`);
    }
    if (this.acceptSymbol('[')) {
      const list: AttributeValue[] = [];
      if (!this.acceptSymbol(']')) {
        do list.push(this.literal());
        while (this.acceptSymbol(','));
        this.expectSymbol(']');
      }
      return { L: list };
    }
    if (this.acceptSymbol('{')) {
      const map: Item = {};
      if (!this.acceptSymbol('}')) {
        do {
          const key = this.peek();
          if (key?.type !== 'string' && key?.type !== 'quoted') throw this.unexpected('expected an attribute name in single quotes');
          this.position += 1;
          this.expectSymbol(':');
          map[key.text] = this.literal();
        } while (this.acceptSymbol(','));
        this.expectSymbol('}');
      }
      return { M: map };
    }
    if (this.acceptSymbol('<<')) {
      const members: AttributeValue[] = [];
      do members.push(this.literal());
      while (this.acceptSymbol(','));
      this.expectSymbol('>>');
      if (members.every((member) => member.S !== undefined)) return { SS: members.map((member) => member.S!) };
      if (members.every((member) => member.N !== undefined)) return { NS: members.map((member) => member.N!) };
      if (members.every((member) => member.B !== undefined)) return { BS: members.map((member) => member.B!) };
      throw validation('One or more parameter values were invalid: a set holds strings, numbers or binaries of one type');
    }
    throw this.unexpected('expected a value');
  }
}

export function parseStatement(text: unknown, parameters: unknown): Statement {
  if (typeof text !== 'string' || text.trim() === '') throw validation("1 validation error detected: Value null at 'statement' failed to satisfy constraint: Member must not be null");
  if (parameters !== undefined && (!Array.isArray(parameters) || parameters.length === 0)) {
    throw validation("1 validation error detected: Value '[]' at 'parameters' failed to satisfy constraint: Member must have length greater than or equal to 1");
  }
  return new StatementParser(text, (parameters as AttributeValue[] | undefined) ?? []).statement();
}

/** Writes a statement's tree out as DynamoDB expression text, collecting its #name and :value placeholders. */
class ExpressionWriter {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, AttributeValue> = {};
  private readonly nameIds = new Map<string, string>();

  path(path: Segment[]): string {
    return path
      .map((segment, index) => {
        if (typeof segment === 'number') return `[${segment}]`;
        let id = this.nameIds.get(segment);
        if (!id) {
          id = `#n${this.nameIds.size}`;
          this.nameIds.set(segment, id);
          this.names[id] = segment;
        }
        return index === 0 ? id : `.${id}`;
      })
      .join('');
  }

  value(value: AttributeValue): string {
    const id = `:v${Object.keys(this.values).length}`;
    this.values[id] = value;
    return id;
  }

  operand(operand: Value): string {
    switch (operand.kind) {
      case 'path':
        return this.path(operand.path);
      case 'value':
        return this.value(operand.value);
      case 'size':
        return `size(${this.path(operand.path)})`;
      case 'arithmetic':
        return `${this.operand(operand.left)} ${operand.sign === 1 ? '+' : '-'} ${this.operand(operand.right)}`;
      case 'list_append':
        return `list_append(${this.operand(operand.left)}, ${this.operand(operand.right)})`;
      case 'if_not_exists':
        return `if_not_exists(${this.path(operand.path)}, ${this.operand(operand.fallback)})`;
    }
  }

  condition(condition: Cond): string {
    switch (condition.kind) {
      case 'and':
      case 'or':
        return `(${this.condition(condition.left)}) ${condition.kind.toUpperCase()} (${this.condition(condition.right)})`;
      case 'not':
        return `NOT (${this.condition(condition.condition)})`;
      case 'compare':
        return `${this.operand(condition.left)} ${condition.comparator} ${this.operand(condition.right)}`;
      case 'between':
        return `${this.operand(condition.operand)} BETWEEN ${this.operand(condition.low)} AND ${this.operand(condition.high)}`;
      case 'in':
        return `${this.operand(condition.operand)} IN (${condition.candidates.map((candidate) => this.operand(candidate)).join(', ')})`;
      case 'function':
        return 'operand' in condition ? `${condition.name}(${this.path(condition.path)}, ${this.operand(condition.operand)})` : `${condition.name}(${this.path(condition.path)})`;
    }
  }

  update(assignments: Assignment[]): string {
    const clauses: Record<Assignment['action'], string[]> = { SET: [], REMOVE: [], ADD: [], DELETE: [] };
    for (const assignment of assignments) {
      if (assignment.action === 'REMOVE') clauses.REMOVE.push(this.path(assignment.path));
      else if (assignment.action === 'SET') clauses.SET.push(`${this.path(assignment.path)} = ${this.operand(assignment.value)}`);
      else clauses[assignment.action].push(`${this.path(assignment.path)} ${this.operand(assignment.value)}`);
    }
    return Object.entries(clauses)
      .filter(([, list]) => list.length > 0)
      .map(([action, list]) => `${action} ${list.join(', ')}`)
      .join(' ');
  }

  /** The placeholders, for a request's ExpressionAttributeNames and ExpressionAttributeValues. */
  placeholders(): Record<string, unknown> {
    return {
      ...(Object.keys(this.names).length ? { ExpressionAttributeNames: this.names } : {}),
      ...(Object.keys(this.values).length ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

const conjuncts = (condition: Cond): Cond[] => (condition.kind === 'and' ? [...conjuncts(condition.left), ...conjuncts(condition.right)] : [condition]);
const joined = (parts: Cond[]): Cond | undefined => parts.reduce<Cond | undefined>((left, right) => (left ? { kind: 'and', left, right } : right), undefined);

/** The value a conjunct fixes an attribute to (`name = value` either way round). */
function equality(condition: Cond, name: string): AttributeValue | undefined {
  if (condition.kind !== 'compare' || condition.comparator !== '=') return undefined;
  const { left, right } = condition;
  if (left.kind === 'path' && left.path.length === 1 && left.path[0] === name && right.kind === 'value') return right.value;
  if (right.kind === 'path' && right.path.length === 1 && right.path[0] === name && left.kind === 'value') return left.value;
  return undefined;
}

/** The primary key a write's WHERE clause names, and what else it asks of the item. */
function keyOf(keys: KeyNames, where: Cond): { key: Item; rest: Cond[] } {
  const parts = conjuncts(where);
  const key: Item = {};
  const used = new Set<Cond>();
  for (const name of [keys.hash, keys.range]) {
    if (!name) continue;
    const part = parts.find((candidate) => !used.has(candidate) && equality(candidate, name) !== undefined);
    if (!part) throw validation('Where clause does not contain a mandatory equality on all key attributes');
    used.add(part);
    key[name] = equality(part, name)!;
  }
  return { key, rest: parts.filter((part) => !used.has(part)) };
}

const RETURN_VALUES: Record<string, string> = { 'ALL OLD': 'ALL_OLD', 'MODIFIED OLD': 'UPDATED_OLD', 'ALL NEW': 'ALL_NEW', 'MODIFIED NEW': 'UPDATED_NEW' };
const DUPLICATE_ITEM = 'Duplicate primary key exists in table';
const PAGE_TOKEN_PREFIX = 'fwpartiql:';

/** A write statement as the plan of the expression request it stands for (nothing written yet). */
function planStatement(store: TableStore, statement: Statement, returnOnFailure?: unknown): PlannedWrite | undefined {
  const table = tableOf(store, statement.table);
  const writer = new ExpressionWriter();
  const request = (kind: WriteKind, input: Record<string, unknown>) => planWrite(store, kind, { TableName: statement.table, ReturnValuesOnConditionCheckFailure: returnOnFailure, ...input, ...writer.placeholders() });
  switch (statement.kind) {
    case 'insert':
      try {
        return request('Put', { Item: statement.item, ConditionExpression: `attribute_not_exists(${writer.path([table.keys.hash])})` });
      } catch (error) {
        if (error instanceof DynamoDbError && error.code === 'ConditionalCheckFailedException') throw new DynamoDbError('DuplicateItemException', DUPLICATE_ITEM);
        throw error;
      }
    case 'update': {
      const { key, rest } = keyOf(table.keys, statement.where);
      // The item must exist: UPDATE never creates one.
      const condition = [`attribute_exists(${writer.path([table.keys.hash])})`, ...rest.map((part) => `(${writer.condition(part)})`)].join(' AND ');
      const update = writer.update(statement.assignments);
      return request('Update', { Key: key, UpdateExpression: update, ConditionExpression: condition, ReturnValues: statement.returning && RETURN_VALUES[statement.returning] });
    }
    case 'delete': {
      const { key, rest } = keyOf(table.keys, statement.where);
      // Deleting an item that is not there succeeds and deletes nothing.
      if (!table.get(key)) return undefined;
      const condition = joined(rest);
      return request('Delete', { Key: key, ...(condition ? { ConditionExpression: writer.condition(condition) } : {}), ReturnValues: statement.returning && RETURN_VALUES[statement.returning] });
    }
    case 'exists': {
      const { key, rest } = keyOf(table.keys, statement.where);
      const condition = [`attribute_exists(${writer.path([table.keys.hash])})`, ...rest.map((part) => `(${writer.condition(part)})`)].join(' AND ');
      return request('ConditionCheck', { Key: key, ConditionExpression: condition });
    }
    default:
      throw validation('Only INSERT, UPDATE, DELETE and EXISTS statements write');
  }
}

/** A SELECT as a Query (the WHERE clause fixes the partition key) or a Scan (anything else), one page. */
function select(store: TableStore, statement: Extract<Statement, { kind: 'select' }>, input: Record<string, unknown>): Record<string, unknown> {
  const table = tableOf(store, statement.table);
  const index = statement.index === undefined ? undefined : table.index(statement.index);
  if (statement.index !== undefined && !index) throw validation(`The table does not have the specified index: ${statement.index}`);
  const keys = index?.keys ?? table.keys;
  const writer = new ExpressionWriter();
  const parts = statement.where ? conjuncts(statement.where) : [];
  const hashPart = parts.find((part) => equality(part, keys.hash) !== undefined);
  const rest = parts.filter((part) => part !== hashPart);
  const rangeParts = rest.filter((part) => conditionAttributes(part).some((name) => name === keys.hash || name === keys.range));
  const rangePart = rangeParts.length === 1 && isKeyCondition(rangeParts[0], keys.range) ? rangeParts[0] : undefined;
  const asQuery = hashPart !== undefined && rangeParts.length === (rangePart ? 1 : 0);
  for (const { name } of statement.order) {
    if (name !== keys.hash && name !== keys.range) throw validation(`Order by is supported only on key attributes: ${name}`);
  }
  if (statement.order.length && !asQuery) throw validation('Must have WHERE clause in the statement when using ORDER BY clause.');
  const descending = statement.order.find(({ name }) => name === keys.range)?.descending ?? false;
  const start = typeof input.NextToken === 'string' ? pageToken(input.NextToken) : undefined;
  const common = {
    TableName: statement.table,
    ...(statement.index !== undefined ? { IndexName: statement.index } : {}),
    ...(statement.paths ? { ProjectionExpression: statement.paths.map((path) => writer.path(path)).join(', ') } : {}),
    ...(input.Limit !== undefined ? { Limit: input.Limit } : {}),
    ...(input.ConsistentRead !== undefined ? { ConsistentRead: input.ConsistentRead } : {}),
    ...(start ? { ExclusiveStartKey: start } : {}),
  };
  let page: Record<string, unknown>;
  if (asQuery) {
    // The partition key on the left, as a key condition has it (`'a' = pk` is allowed in PartiQL).
    const hashEquals: Cond = { kind: 'compare', comparator: '=', left: { kind: 'path', path: [keys.hash] }, right: { kind: 'value', value: equality(hashPart!, keys.hash)! } };
    const keyCondition = joined([hashEquals, ...(rangePart ? [rangePart] : [])])!;
    const filter = joined(rest.filter((part) => part !== rangePart));
    const KeyConditionExpression = writer.condition(keyCondition);
    const FilterExpression = filter && writer.condition(filter);
    page = query(store, { ...common, KeyConditionExpression, ...(FilterExpression ? { FilterExpression } : {}), ScanIndexForward: !descending, ...writer.placeholders() });
  } else {
    const FilterExpression = statement.where && writer.condition(statement.where);
    page = scan(store, { ...common, ...(FilterExpression ? { FilterExpression } : {}), ...writer.placeholders() });
  }
  return { Items: page.Items, ...(page.LastEvaluatedKey ? { NextToken: `${PAGE_TOKEN_PREFIX}${Buffer.from(JSON.stringify(page.LastEvaluatedKey)).toString('base64')}` } : {}) };
}

/** Whether a condition on the sort key is one a Query's key condition takes. */
function isKeyCondition(part: Cond, range: string | undefined): boolean {
  if (!range) return false;
  const onRange = (operand: Value) => operand.kind === 'path' && operand.path.length === 1 && operand.path[0] === range;
  if (part.kind === 'compare') return part.comparator !== '<>' && onRange(part.left) && part.right.kind === 'value';
  if (part.kind === 'between') return onRange(part.operand) && part.low.kind === 'value' && part.high.kind === 'value';
  return part.kind === 'function' && part.name === 'begins_with' && part.path.length === 1 && part.path[0] === range && part.operand.kind === 'value';
}

function pageToken(token: string): Item {
  try {
    if (!token.startsWith(PAGE_TOKEN_PREFIX)) throw new Error('foreign');
    return JSON.parse(Buffer.from(token.slice(PAGE_TOKEN_PREFIX.length), 'base64').toString('utf8')) as Item;
  } catch {
    throw validation('Invalid NextToken');
  }
}

/** ExecuteStatement: one statement, read or write. */
export function executeStatement(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  const statement = parseStatement(input.Statement, input.Parameters);
  if (statement.kind === 'select') return select(store, statement, input);
  if (statement.kind === 'exists') throw validation('EXISTS is only allowed in ExecuteTransaction');
  const plan = planStatement(store, statement, input.ReturnValuesOnConditionCheckFailure);
  if (plan) commit(store, [plan]);
  return { Items: plan?.returned ? [plan.returned] : [] };
}

/** A read in a batch or transaction: a SELECT that names one whole primary key, answered as GetItem. */
function keyedRead(store: TableStore, statement: Statement, where: string): Record<string, unknown> {
  if (statement.kind !== 'select' || statement.index !== undefined || !statement.where) throw validation(`${where} read statements must be SELECTs on a table with a full primary key`);
  const table = tableOf(store, statement.table);
  const { key, rest } = keyOf(table.keys, statement.where);
  if (rest.length > 0) throw validation(`${where} read statements can only compare the key attributes`);
  const writer = new ExpressionWriter();
  const projection = statement.paths ? { ProjectionExpression: statement.paths.map((path) => writer.path(path)).join(', '), ...writer.placeholders() } : {};
  return getItem(store, { TableName: statement.table, Key: key, ...projection });
}

const ERROR_CODES: Record<string, string> = {
  ConditionalCheckFailedException: 'ConditionalCheckFailed',
  DuplicateItemException: 'DuplicateItem',
  ValidationException: 'ValidationError',
  ResourceNotFoundException: 'ResourceNotFound',
};

/** BatchExecuteStatement: up to 25 statements, all reads or all writes, each answered or failed on its own. */
export function batchExecuteStatement(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  const requests = input.Statements as Record<string, unknown>[] | undefined;
  if (!Array.isArray(requests) || requests.length === 0 || requests.length > 25) {
    throw validation("1 validation error detected: Value at 'statements' failed to satisfy constraint: Member must have length less than or equal to 25 and greater than or equal to 1");
  }
  const parsed = requests.map((request) => {
    try {
      return parseStatement(request.Statement, request.Parameters);
    } catch (error) {
      return error as Error;
    }
  });
  const reads = parsed.filter((statement) => !(statement instanceof Error) && statement.kind === 'select').length;
  const writes = parsed.filter((statement) => !(statement instanceof Error) && statement.kind !== 'select').length;
  if (reads > 0 && writes > 0) throw validation('Batch must consist of either only read statements or only write statements');
  return {
    Responses: parsed.map((statement, position) => {
      const table = statement instanceof Error ? undefined : statement.table;
      try {
        if (statement instanceof Error) throw statement;
        if (statement.kind === 'select') return { TableName: table, ...keyedRead(store, statement, 'Batch') };
        const plan = planStatement(store, statement, requests[position].ReturnValuesOnConditionCheckFailure);
        if (plan) commit(store, [plan]);
        return { TableName: table, ...(plan?.returned ? { Item: plan.returned } : {}) };
      } catch (error) {
        if (!(error instanceof AwsError) || !ERROR_CODES[error.code]) throw error;
        const fields = error instanceof DynamoDbError ? error.fields : {};
        return { ...(table ? { TableName: table } : {}), Error: { Code: ERROR_CODES[error.code], Message: error.message, ...fields } };
      }
    }),
  };
}

/** ExecuteTransaction: up to 100 statements, all reads or all writes, applied together or not at all. */
export function executeTransaction(store: TableStore, input: Record<string, unknown>): Record<string, unknown> {
  const requests = input.TransactStatements as Record<string, unknown>[] | undefined;
  if (!Array.isArray(requests) || requests.length === 0 || requests.length > 100) {
    throw validation("1 validation error detected: Value at 'transactStatements' failed to satisfy constraint: Member must have length less than or equal to 100 and greater than or equal to 1");
  }
  const statements = requests.map((request) => parseStatement(request.Statement, request.Parameters));
  const reads = statements.filter((statement) => statement.kind === 'select').length;
  if (reads === statements.length) return { Responses: statements.map((statement) => keyedRead(store, statement, 'Transaction')) };
  if (reads > 0) throw validation('Transaction must contain either only read statements or only write statements');
  const plans: (PlannedWrite | undefined)[] = [];
  const reasons: Record<string, unknown>[] = [];
  for (const [position, statement] of statements.entries()) {
    try {
      plans.push(planStatement(store, statement, requests[position].ReturnValuesOnConditionCheckFailure));
      reasons.push({ Code: 'None' });
    } catch (error) {
      if (!(error instanceof DynamoDbError) || !['ConditionalCheckFailedException', 'DuplicateItemException'].includes(error.code)) throw error;
      plans.push(undefined);
      reasons.push({ Code: ERROR_CODES[error.code], Message: error.code === 'DuplicateItemException' ? DUPLICATE_ITEM : CONDITION_FAILED, ...error.fields });
      continue;
    }
  }
  if (reasons.some((reason) => reason.Code !== 'None')) {
    throw new DynamoDbError('TransactionCanceledException', `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`, {
      CancellationReasons: reasons,
    });
  }
  const written = plans.filter((plan): plan is PlannedWrite => plan !== undefined);
  const keys = new Set(written.map((plan) => `${plan.table.definition.TableName}\u0000${JSON.stringify(plan.key)}`));
  if (keys.size !== written.length) throw validation('Transaction request cannot include multiple operations on one item');
  commit(store, written);
  return {};
}
