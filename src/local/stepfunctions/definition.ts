import { AwsError } from '../protocol/errors';

/** A state machine's definition in the Amazon States Language, as far as the interpreter reads it. */
export interface StateMachineDefinition {
  Comment?: string;
  StartAt: string;
  States: Record<string, State>;
  TimeoutSeconds?: number;
}

export type State = Record<string, unknown> & { Type: string; Next?: string; End?: boolean };

export interface Diagnostic {
  severity: 'ERROR';
  code: string;
  message: string;
  location: string;
}

const STATE_TYPES = new Set(['Pass', 'Task', 'Choice', 'Wait', 'Succeed', 'Fail', 'Parallel', 'Map']);
const WAIT_FIELDS = ['Seconds', 'Timestamp', 'SecondsPath', 'TimestampPath'];
const COMPARISONS = new Set(
  ['String', 'Numeric', 'Boolean', 'Timestamp'].flatMap((kind) =>
    (kind === 'Boolean' ? ['Equals'] : ['Equals', 'LessThan', 'GreaterThan', 'LessThanEquals', 'GreaterThanEquals']).flatMap((test) => [`${kind}${test}`, `${kind}${test}Path`]),
  ).concat(['StringMatches', 'IsNull', 'IsPresent', 'IsNumeric', 'IsString', 'IsBoolean', 'IsTimestamp']),
);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Checks a definition as Step Functions does on CreateStateMachine, collecting every problem with where it is. */
class Checker {
  readonly diagnostics: Diagnostic[] = [];

  private add(code: string, message: string, location: string): void {
    this.diagnostics.push({ severity: 'ERROR', code, message: `${code}: ${message} at ${location}`, location });
  }

  machine(value: unknown, at: string): void {
    const where = at || '/';
    if (!isObject(value)) return this.add('SCHEMA_VALIDATION_FAILED', 'Expected an object', where);
    if (typeof value.StartAt !== 'string') this.add('SCHEMA_VALIDATION_FAILED', 'These fields are required: [StartAt]', where);
    if (!isObject(value.States) || Object.keys(value.States).length === 0) return this.add('SCHEMA_VALIDATION_FAILED', 'These fields are required: [States]', where);
    if (value.TimeoutSeconds !== undefined && !(Number.isInteger(value.TimeoutSeconds) && (value.TimeoutSeconds as number) > 0)) this.add('SCHEMA_VALIDATION_FAILED', 'The value for the field \'TimeoutSeconds\' must be a positive integer', `${at}/TimeoutSeconds`);
    const states = value.States;
    if (typeof value.StartAt === 'string' && !(value.StartAt in states)) this.add('MISSING_TRANSITION_TARGET', `Missing 'Next' target: ${value.StartAt}`, `${at}/StartAt`);
    const targets = new Map<string, string[]>();
    let terminal = false;
    for (const [name, state] of Object.entries(states)) {
      const location = `${at}/States/${name}`;
      if (name.length > 80) this.add('INVALID_STATE_NAME', `The state name '${name}' is longer than 80 characters`, location);
      if (!isObject(state) || typeof state.Type !== 'string' || !STATE_TYPES.has(state.Type)) {
        this.add('SCHEMA_VALIDATION_FAILED', `The field "Type" should have one of these values: [${[...STATE_TYPES].join(', ')}]`, `${location}/Type`);
        continue;
      }
      targets.set(name, this.state(state, location, states));
      if (state.End === true || state.Type === 'Succeed' || state.Type === 'Fail') terminal = true;
    }
    if (!terminal && Object.values(states).every((state) => isObject(state) && state.Type !== 'Choice')) this.add('MISSING_END_STATE', 'Workflow has no terminal state', where);
    // Every state must be reachable from StartAt.
    const reached = new Set<string>();
    const pending = typeof value.StartAt === 'string' ? [value.StartAt] : [];
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (reached.has(name) || !targets.has(name)) continue;
      reached.add(name);
      pending.push(...targets.get(name)!);
    }
    for (const name of targets.keys()) if (!reached.has(name)) this.add('UNREACHABLE_STATE', `State "${name}" is not reachable.`, `${at}/States/${name}`);
  }

  /** Checks one state; returns the states it can go to. */
  private state(state: Record<string, unknown>, location: string, states: Record<string, unknown>): string[] {
    const next: string[] = [];
    const target = (value: unknown, field: string) => {
      if (typeof value !== 'string') return;
      if (!(value in states)) this.add('MISSING_TRANSITION_TARGET', `Missing 'Next' target: ${value}`, `${location}/${field}`);
      else next.push(value);
    };
    const type = state.Type as string;
    const flows = type !== 'Choice' && type !== 'Succeed' && type !== 'Fail';
    if (flows) {
      if (state.Next !== undefined && state.End !== undefined) this.add('SCHEMA_VALIDATION_FAILED', 'Only one of "Next" or "End" can be present', location);
      else if (state.Next === undefined && state.End !== true) this.add('SCHEMA_VALIDATION_FAILED', 'The field "Next" or "End" is required', location);
      target(state.Next, 'Next');
    } else if (state.Next !== undefined || state.End !== undefined) {
      this.add('SCHEMA_VALIDATION_FAILED', `Field "${state.Next !== undefined ? 'Next' : 'End'}" is not supported by ${type} states`, location);
    }
    if (type === 'Task' && typeof state.Resource !== 'string') this.add('SCHEMA_VALIDATION_FAILED', 'These fields are required: [Resource]', location);
    if (type === 'Wait' && WAIT_FIELDS.filter((field) => state[field] !== undefined).length !== 1) this.add('SCHEMA_VALIDATION_FAILED', `Exactly one of [${WAIT_FIELDS.join(', ')}] is required`, location);
    if (type === 'Choice') {
      if (!Array.isArray(state.Choices) || state.Choices.length === 0) this.add('SCHEMA_VALIDATION_FAILED', 'These fields are required: [Choices]', location);
      else state.Choices.forEach((rule, index) => {
        this.rule(rule, `${location}/Choices/${index}`, true);
        if (isObject(rule)) target(rule.Next, `Choices/${index}/Next`);
      });
      target(state.Default, 'Default');
    }
    if (type === 'Parallel') {
      if (!Array.isArray(state.Branches) || state.Branches.length === 0) this.add('SCHEMA_VALIDATION_FAILED', 'These fields are required: [Branches]', location);
      else state.Branches.forEach((branch, index) => this.machine(branch, `${location}/Branches/${index}`));
    }
    if (type === 'Map') {
      const processor = state.ItemProcessor ?? state.Iterator;
      if (processor === undefined) this.add('SCHEMA_VALIDATION_FAILED', 'These fields are required: [ItemProcessor]', location);
      else this.machine(processor, `${location}/${state.ItemProcessor !== undefined ? 'ItemProcessor' : 'Iterator'}`);
    }
    for (const field of ['Retry', 'Catch'] as const) {
      const list = state[field];
      if (list === undefined) continue;
      if (type !== 'Task' && type !== 'Parallel' && type !== 'Map') {
        this.add('SCHEMA_VALIDATION_FAILED', `Field "${field}" is not supported by ${type} states`, location);
        continue;
      }
      if (!Array.isArray(list)) {
        this.add('SCHEMA_VALIDATION_FAILED', `The field "${field}" must be an array`, `${location}/${field}`);
        continue;
      }
      list.forEach((entry, index) => {
        if (!isObject(entry) || !Array.isArray(entry.ErrorEquals) || entry.ErrorEquals.length === 0) this.add('SCHEMA_VALIDATION_FAILED', 'These fields are required: [ErrorEquals]', `${location}/${field}/${index}`);
        else if (entry.ErrorEquals.includes('States.ALL') && (entry.ErrorEquals.length > 1 || index !== list.length - 1)) this.add('SCHEMA_VALIDATION_FAILED', 'States.ALL must appear alone and in the last retrier or catcher', `${location}/${field}/${index}/ErrorEquals`);
        if (field === 'Catch' && isObject(entry)) {
          if (typeof entry.Next !== 'string') this.add('SCHEMA_VALIDATION_FAILED', 'These fields are required: [Next]', `${location}/Catch/${index}`);
          target(entry.Next, `Catch/${index}/Next`);
        }
      });
    }
    return next;
  }

  private rule(rule: unknown, location: string, top: boolean): void {
    if (!isObject(rule)) return this.add('SCHEMA_VALIDATION_FAILED', 'Expected an object', location);
    if (top && typeof rule.Next !== 'string') this.add('SCHEMA_VALIDATION_FAILED', 'These fields are required: [Next]', location);
    if (Array.isArray(rule.And) || Array.isArray(rule.Or)) {
      const list = (rule.And ?? rule.Or) as unknown[];
      list.forEach((inner, index) => this.rule(inner, `${location}/${rule.And ? 'And' : 'Or'}/${index}`, false));
      return;
    }
    if (isObject(rule.Not)) return this.rule(rule.Not, `${location}/Not`, false);
    const tests = Object.keys(rule).filter((key) => COMPARISONS.has(key));
    if (typeof rule.Variable !== 'string' || tests.length !== 1) this.add('SCHEMA_VALIDATION_FAILED', 'A choice rule needs a "Variable" and exactly one comparison operator', location);
  }
}

/** The diagnostics ValidateStateMachineDefinition reports for a definition's text (none: valid). */
export function diagnose(text: string): Diagnostic[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return [{ severity: 'ERROR', code: 'INVALID_JSON_DESCRIPTION', message: `INVALID_JSON_DESCRIPTION: ${(error as Error).message}`, location: '' }];
  }
  const checker = new Checker();
  checker.machine(parsed, '');
  return checker.diagnostics;
}

/** The definition, or the InvalidDefinition error CreateStateMachine and UpdateStateMachine answer. */
export function parseDefinition(text: string): StateMachineDefinition {
  const diagnostics = diagnose(text);
  if (diagnostics.length > 0) throw new AwsError('InvalidDefinition', `Invalid State Machine Definition: '${diagnostics.map((diagnostic) => diagnostic.message).join(', ')}'`);
  return JSON.parse(text) as StateMachineDefinition;
}
