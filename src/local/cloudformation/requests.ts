import { validationError } from '../protocol/errors';
import type { QueryParams } from '../protocol/query';
import type { LocalServices } from '../service-interfaces';
import { parseTemplate } from '../template/parse';
import type { OperationInput, StackRecord } from './model';
import { templateText } from './template-source';

/** Reading the parts of CloudFormation requests that several operations share. */

const PAGE = 100;

/** A page of a list and the token for the next one. */
export function page<T>(items: T[], token: string | undefined, size = PAGE): { items: T[]; next?: string } {
  const start = token ? Number(Buffer.from(token, 'base64url').toString()) || 0 : 0;
  const slice = items.slice(start, start + size);
  const next = start + size < items.length ? Buffer.from(String(start + size)).toString('base64url') : undefined;
  return { items: slice, next };
}

function parametersOf(params: QueryParams, previous: Record<string, string> = {}): Record<string, string> {
  const values: Record<string, string> = {};
  for (const entry of params.structs('Parameters')) {
    if (entry.UsePreviousValue === 'true') {
      if (previous[entry.ParameterKey] !== undefined) values[entry.ParameterKey] = previous[entry.ParameterKey];
    } else if (entry.ParameterKey !== undefined) values[entry.ParameterKey] = entry.ParameterValue ?? '';
  }
  return values;
}

function tagsOf(params: QueryParams): { Key: string; Value: string }[] {
  return params.structs('Tags').map((tag) => ({ Key: tag.Key, Value: tag.Value ?? '' }));
}

/** The template, parameters, capabilities and tags of CreateStack, UpdateStack or CreateChangeSet. */
export function operationInput(cloud: LocalServices, params: QueryParams, previous?: StackRecord): OperationInput {
  const usePrevious = params.boolean('UsePreviousTemplate') === true;
  if (usePrevious && !previous) throw validationError('UsePreviousTemplate needs an existing stack');
  const templateBody = usePrevious ? previous!.templateBody : templateText({ body: params.string('TemplateBody'), url: params.string('TemplateURL') }, cloud.s3);
  const template = parseTemplate(templateBody);
  return {
    template,
    templateBody,
    parameters: parametersOf(params, previous?.parameters),
    capabilities: params.list('Capabilities'),
    tags: params.structs('Tags').length > 0 || !previous ? tagsOf(params) : previous.tags,
  };
}

/** A new stack record, before any operation ran on it. */
export function newStack(cloud: LocalServices, name: string, region: string, status: string): StackRecord {
  if (!/^[A-Za-z][A-Za-z0-9-]{0,127}$/.test(name)) {
    throw validationError(`1 validation error detected: Value '${name}' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*`);
  }
  return {
    stackId: cloud.engine.newStackId(region, name),
    stackName: name,
    region,
    status,
    creationTime: new Date().toISOString(),
    templateBody: '',
    parameters: {},
    capabilities: [],
    tags: [],
    disableRollback: false,
    terminationProtection: false,
    outputs: [],
    imports: [],
    resources: {},
    events: [],
    changeSets: [],
  };
}

