import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from '../template';
import * as naming from '../naming';
import { splittingConfig } from './config';
import type { Placement } from './placement';
import { splitTemplate, type Move } from './split';

export interface SplitPackage {
  /** The nested templates written beside the root one, as the state file lists them. */
  nestedStacks: Array<{ logicalId: string; file: string }>;
  /** Their entries in the state's artifacts: sha256 of the text without this package's folder, so an unchanged one is recognized. */
  files: Array<{ name: string; sha256: string; size: number }>;
  placement?: Placement;
  moves: Move[];
}

export interface SplitPackageInput {
  template: Template;
  provider: Record<string, unknown>;
  userResources: string[];
  userOutputs: string[];
  artifactDirectory: string;
  /** The deployment bucket's name, or `{ Ref: ServerlessDeploymentBucket }`. */
  bucket: unknown;
  /** The state file of the last package, if any: its placement is kept. */
  previousStateFile: string;
  /** The deployed placement, when the caller read it: it wins over the last package's. */
  previousPlacement?: Placement;
  stage: string;
  region: string;
  /** Where nested templates are written (the staging folder of `fw package`). */
  folder: string;
  /** Strings that change on every package (the artifact folder, the REST deployment id). */
  volatile: string[];
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The `fw package` step of stack splitting: splits the template in place (its Resources and
 * Outputs become the root stack's) and writes each nested template into the package folder.
 */
export function splitPackagedTemplate(input: SplitPackageInput): SplitPackage {
  const config = splittingConfig(input.provider.stackSplitting);
  // `off`: the template stays whole, and CloudFormation says which limit it goes over, if any.
  if (config.mode === 'off') return { nestedStacks: [], files: [], moves: [] };
  const previousPlacement = input.previousPlacement ?? readPreviousPlacement(input);
  const pinned = new Set([naming.deploymentBucket(), naming.deploymentBucketPolicy(), ...(config.moveUserResources ? [] : input.userResources)]);
  const result = splitTemplate(input.template, {
    mode: config.mode,
    previousPlacement,
    pinned,
    pinnedOutputs: config.moveUserResources ? [] : input.userOutputs,
    templateUrl: file => ({
      'Fn::Join': ['', ['https://s3.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/', input.bucket, '/', `${input.artifactDirectory}/${file}`]],
    }),
  });
  input.template.Resources = result.root.Resources;
  if (result.root.Outputs) input.template.Outputs = result.root.Outputs;
  const volatile = new RegExp(input.volatile.map(text => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const files = result.nested.map(({ file, text }) => {
    writeFileSync(join(input.folder, file), text);
    return { name: file, sha256: sha256(text.replace(volatile, '<volatile>')), size: Buffer.byteLength(text) };
  });
  return { nestedStacks: result.nested.map(({ name, file }) => ({ logicalId: name, file })), files, placement: result.placement, moves: result.moves };
}

function readPreviousPlacement(input: SplitPackageInput): Placement | undefined {
  try {
    const state = JSON.parse(readFileSync(input.previousStateFile, 'utf8')) as { stage?: string; region?: string; placement?: Placement };
    return state.stage === input.stage && state.region === input.region ? state.placement : undefined;
  } catch {
    return undefined;
  }
}
