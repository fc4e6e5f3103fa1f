import { validationError } from '../protocol/errors';
import type { Template } from './types';

/** The functions CloudFormation lists when it meets another `Fn::` name. */
const SUPPORTED = ['Fn::Base64', 'Fn::GetAtt', 'Fn::GetAZs', 'Fn::ImportValue', 'Fn::Join', 'Fn::Split', 'Fn::FindInMap', 'Fn::Select', 'Ref', 'Fn::Equals', 'Fn::If', 'Fn::Not', 'Condition', 'Fn::And', 'Fn::Or', 'Fn::Contains', 'Fn::EachMemberEquals', 'Fn::EachMemberIn', 'Fn::ValueOf', 'Fn::ValueOfAll', 'Fn::RefAll', 'Fn::Sub', 'Fn::Cidr'];
/** Also accepted: the language-extension functions the resolver evaluates. */
const ALSO_KNOWN = ['Fn::Length', 'Fn::ToJsonString', 'Fn::Transform'];

const GET_ATT = 'Template error: every Fn::GetAtt object requires two non-empty parameters';
const JOIN = 'Template error: every Fn::Join object requires two parameters, (1) a string delimiter and (2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined.';
const SPLIT = 'Template error: every Fn::Split object requires two parameters, (1) a string delimiter and (2) a string to be split or a function that returns a string to be split.';
const SELECT = 'Template error: Fn::Select requires a list argument with two elements: an integer index and a list';
const FIND_IN_MAP = 'Template error: every Fn::FindInMap object requires three parameters, the map name, map key and the attribute for return value';
const SUB = "Template error: One or more Fn::Sub intrinsic functions don't specify expected arguments. Specify a string as first argument, and an optional second argument to specify a mapping of values to replace in the string";
const REF = 'Template format error: Every Ref object must have a single String value.';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isFunction = (value: unknown) => isObject(value) && Object.keys(value).length === 1 && (Object.keys(value)[0] === 'Ref' || Object.keys(value)[0].startsWith('Fn::'));

/** Checks the argument shape of each intrinsic function in a template, with the messages CloudFormation gives before it starts. */
export function checkIntrinsicShapes(template: Template): void {
  const resources = Object.values(template.Resources ?? {}).map((resource) => resource.Properties);
  visit([resources, Object.values(template.Outputs ?? {}), template.Conditions]);
}

function visit(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) visit(item);
    return;
  }
  if (!isObject(value)) return;
  const keys = Object.keys(value);
  if (keys.length === 1 && (keys[0] === 'Ref' || keys[0].startsWith('Fn::'))) check(keys[0], value[keys[0]]);
  for (const child of Object.values(value)) visit(child);
}

function check(name: string, argument: unknown): void {
  const list = Array.isArray(argument) ? argument : undefined;
  const nonEmptyText = (item: unknown) => (typeof item === 'string' && item !== '') || isFunction(item);
  switch (name) {
    case 'Ref':
      if (typeof argument !== 'string') throw validationError(REF);
      return;
    case 'Fn::GetAtt':
      if (typeof argument === 'string' ? !/^[^.]+\..+$/.test(argument) : !list || list.length !== 2 || !list.every(nonEmptyText)) throw validationError(GET_ATT);
      return;
    case 'Fn::Join':
      if (!list || list.length !== 2 || typeof list[0] !== 'string' || !(Array.isArray(list[1]) || isFunction(list[1]))) throw validationError(JOIN);
      return;
    case 'Fn::Split':
      if (!list || list.length !== 2 || typeof list[0] !== 'string' || !(typeof list[1] === 'string' || isFunction(list[1]))) throw validationError(SPLIT);
      return;
    case 'Fn::Select':
      if (!list || list.length !== 2) throw validationError(SELECT);
      return;
    case 'Fn::FindInMap':
      if (!list || list.length < 3 || list.length > 4) throw validationError(FIND_IN_MAP);
      return;
    case 'Fn::Sub':
      if (!(typeof argument === 'string' || (list && (list.length === 1 || list.length === 2) && typeof list[0] === 'string' && (list.length === 1 || isObject(list[1]))))) throw validationError(SUB);
      return;
    default:
      if (!SUPPORTED.includes(name) && !ALSO_KNOWN.includes(name)) {
        throw validationError(`Template error: Encountered unsupported function: ${name} Supported functions are: [${SUPPORTED.join(', ')}]`);
      }
  }
}
