import type { IConstruct } from 'constructs';
import { ConfigError } from '../errors';
import { Element, type Fragment } from './resource';
import type { Service } from './service';
import * as naming from '../synth/naming';
import { stripNulls } from '../synth/merge';
import { applyUserResources } from '../synth/overrides';
import { DEFAULT_DESCRIPTION, type Template } from '../synth/template';

const where = (construct: IConstruct) => `Service/${construct.node.path}`;

/** Every `node.addValidation` problem in the tree, reported together. */
function validate(service: Service): void {
  const problems = service.node.findAll().flatMap(construct => construct.node.validate());
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
}

/**
 * Tree → template: every element's fragment merged in tree order (a logical id
 * claimed twice is an error naming both constructs), generated Outputs exported,
 * then the user's `resources` applied and `null` properties removed.
 */
export function synthesize(service: Service): Template {
  service.finish();
  validate(service);
  const template: Template = { AWSTemplateFormatVersion: '2010-09-09', Description: DEFAULT_DESCRIPTION, Resources: {}, Outputs: {} };
  const owners = new Map<string, IConstruct>();
  for (const construct of service.node.findAll()) {
    if (!(construct instanceof Element)) continue;
    let fragment: Fragment;
    try {
      fragment = construct.toCloudFormation();
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new Error(`While synthesizing ${where(construct)}: ${(error as Error).message}`, { cause: error });
    }
    const resources = fragment.Resources ?? {};
    for (const logicalId in resources) {
      const owner = owners.get(`Resources.${logicalId}`);
      if (owner) throw new Error(`Logical id "${logicalId}" is generated twice: by ${where(owner)} and by ${where(construct)}`);
      owners.set(`Resources.${logicalId}`, construct);
      template.Resources[logicalId] = resources[logicalId];
    }
    for (const [key, output] of Object.entries(fragment.Outputs ?? {})) {
      const owner = owners.get(`Outputs.${key}`);
      if (owner) throw new Error(`Output "${key}" is generated twice: by ${where(owner)} and by ${where(construct)}`);
      owners.set(`Outputs.${key}`, construct);
      template.Outputs![key] = { ...output, Export: { Name: naming.exportName(service.name, service.stage, key) } };
    }
  }
  applyUserResources(template, service.config.resources);
  template.Resources = stripNulls(template.Resources);
  if (template.Outputs) template.Outputs = stripNulls(template.Outputs);
  if (Object.keys(template.Outputs ?? {}).length === 0) delete template.Outputs;
  return template;
}

/**
 * The template a new stack is created with: only the deployment bucket, so artifacts
 * can be uploaded before the full update. None when `provider.deploymentBucket` names one.
 */
export function createStackTemplate(full: Template, service: Service): Template | undefined {
  if (service.deploymentBucketName !== undefined) return undefined;
  const template: Template = { AWSTemplateFormatVersion: '2010-09-09', Description: DEFAULT_DESCRIPTION, Resources: {} };
  for (const id of [naming.deploymentBucket(), naming.deploymentBucketPolicy()]) template.Resources[id] = full.Resources[id];
  template.Outputs = { [naming.deploymentBucketOutput()]: { Value: { Ref: naming.deploymentBucket() } } };
  return template;
}
