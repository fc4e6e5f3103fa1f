import { validationError } from '../protocol/errors';
import { parseYaml } from '../../formats/yaml';
import type { Template } from './types';

const SECTIONS = new Set(['AWSTemplateFormatVersion', 'Description', 'Metadata', 'Parameters', 'Rules', 'Mappings', 'Conditions', 'Transform', 'Resources', 'Outputs']);

export const TEMPLATE_BODY_LIMIT = 51_200;
export const TEMPLATE_URL_LIMIT = 1_000_000;
export const RESOURCE_LIMIT = 500;
export const OUTPUT_LIMIT = 200;

/** Reads a JSON or YAML template and checks what CloudFormation checks before it starts an operation. */
export function parseTemplate(body: string): Template {
  const text = body.trim();
  let parsed: unknown;
  if (text.startsWith('{')) {
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw validationError(`Template format error: JSON not well-formed. (${(error as Error).message})`);
    }
  } else {
    try {
      parsed = parseYaml(text, 'template');
    } catch (error) {
      throw validationError(`Template format error: YAML not well-formed. (${(error as Error).message})`);
    }
  }
  return checkShape(parsed);
}

function checkShape(parsed: unknown): Template {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw validationError('Template format error: unsupported structure.');
  }
  const template = parsed as Template;
  const unknown = Object.keys(template).filter((section) => !SECTIONS.has(section));
  if (unknown.length > 0) throw validationError(`Template format error: Invalid template property or properties [${unknown.join(', ')}]`);
  if (template.Transform !== undefined) throw validationError('Template format error: the local cloud does not run template transforms (macros)');
  const resources = template.Resources;
  if (resources === null || typeof resources !== 'object' || Array.isArray(resources) || Object.keys(resources).length === 0) {
    throw validationError('Template format error: At least one Resources member must be defined.');
  }
  const resourceCount = Object.keys(resources).length;
  if (resourceCount > RESOURCE_LIMIT) {
    throw validationError(`Template format error: Number of resources, ${resourceCount}, is greater than maximum allowed, ${RESOURCE_LIMIT}`);
  }
  const outputCount = Object.keys(template.Outputs ?? {}).length;
  if (outputCount > OUTPUT_LIMIT) {
    throw validationError(`Template format error: Number of outputs, ${outputCount}, is greater than maximum allowed, ${OUTPUT_LIMIT}`);
  }
  for (const [logicalId, declaration] of Object.entries(resources)) {
    if (!/^[A-Za-z0-9]+$/.test(logicalId)) {
      throw validationError(`Template format error: Resource name ${logicalId} is non alphanumeric.`);
    }
    if (declaration === null || typeof declaration !== 'object' || typeof declaration.Type !== 'string') {
      throw validationError(`Template format error: [/Resources/${logicalId}] Every Resources object must contain a Type member.`);
    }
    if (declaration.Properties !== undefined && (declaration.Properties === null || typeof declaration.Properties !== 'object')) {
      throw validationError(`Template format error: [/Resources/${logicalId}/Properties] Every Properties member must be an object.`);
    }
  }
  for (const [name, output] of Object.entries(template.Outputs ?? {})) {
    if (output === null || typeof output !== 'object' || !('Value' in output)) {
      throw validationError(`Template format error: Every Outputs member must contain a Value object, the Outputs member ${name} does not.`);
    }
  }
  return template;
}

export function checkTemplateBodySize(body: string): void {
  if (Buffer.byteLength(body) > TEMPLATE_BODY_LIMIT) {
    throw validationError(`1 validation error detected: Value at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to ${TEMPLATE_BODY_LIMIT}`);
  }
}

export function checkTemplateUrlSize(body: string): void {
  if (Buffer.byteLength(body) > TEMPLATE_URL_LIMIT) {
    throw validationError(`Template may not exceed ${TEMPLATE_URL_LIMIT} bytes in size.`);
  }
}
