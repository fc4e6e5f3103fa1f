import { ConfigError } from '../../errors';
import { parseTemplate } from '../template/parse';
import { dependencyGraph } from '../template/graph';
import { provisioningSeconds } from './provisioning-times';

/**
 * `--provisioning-delay`: makes each resource step of a stack operation take `scale` times the
 * typical AWS time for its type (provisioning-times.ts). The engine works through resources one
 * after another, but CloudFormation provisions every resource whose dependencies are done at the
 * same time; so a step does not wait its own time after the previous step, it waits until the
 * moment it would end had it started as soon as its dependencies ended. Independent resources'
 * waits overlap, and an operation lasts its critical path, as on AWS.
 */
export class ProvisioningClock {
  private readonly started = Date.now();
  /** Milliseconds after `started` at which each resource's step ends. */
  private readonly ends = new Map<string, number>();

  constructor(
    private readonly scale: number,
    /** The resources whose steps must end before this one's starts. */
    private readonly waitsFor: (logicalId: string) => readonly string[],
  ) {}

  /** Waits until the resource's step would end; returns at once without a delay or when `signal` aborts. */
  async step(logicalId: string, type: string, signal?: AbortSignal): Promise<void> {
    if (!(this.scale > 0)) return;
    const start = Math.max(0, ...this.waitsFor(logicalId).map(id => this.ends.get(id) ?? 0));
    const end = start + provisioningSeconds(type) * 1000 * this.scale;
    this.ends.set(logicalId, end);
    await sleepUntil(this.started + end, signal);
  }
}

/** A clock for creating and updating a template's resources: each waits for those it references. */
export function creationClock(scale: number, graph: Map<string, string[]>): ProvisioningClock {
  return new ProvisioningClock(scale, id => graph.get(id) ?? []);
}

/** A clock for deleting a stack's resources: each waits for those that reference it (deleted first). */
export function deletionClock(scale: number, templateBody: string | undefined): ProvisioningClock {
  if (!(scale > 0)) return new ProvisioningClock(0, () => []);
  let graph = new Map<string, string[]>();
  try {
    graph = dependencyGraph(parseTemplate(templateBody ?? ''));
  } catch {
    // No readable template (a stack whose creation failed early): its resources are deleted side by side.
  }
  const dependents = new Map<string, string[]>();
  for (const [id, dependencies] of graph) for (const dependency of dependencies) dependents.set(dependency, [...(dependents.get(dependency) ?? []), id]);
  return new ProvisioningClock(scale, id => dependents.get(id) ?? []);
}

/** Waits until Date.now() reaches `time` (a timer can fire a millisecond before the clock gets there: it then waits again). */
async function sleepUntil(time: number, signal?: AbortSignal): Promise<void> {
  for (let wait = time - Date.now(); wait > 0 && !signal?.aborted; wait = time - Date.now()) {
    await new Promise<void>(resolve => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, wait);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/** What `fw deploy --local` gives a local cloud it starts itself as its provisioning delay. */
export const PROVISIONING_DELAY_ENV = 'FW_LOCAL_PROVISIONING_DELAY';

/** `--provisioning-delay` or $FW_LOCAL_PROVISIONING_DELAY as a number (0 when not given); `where` names it in the error. */
export function provisioningDelayFrom(text: string | undefined, where: string): number {
  if (text === undefined || text.trim() === '') return 0;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new ConfigError(`Invalid ${where}: expected a fraction of the typical AWS time such as 0.05 (a number of at least 0), got ${JSON.stringify(text)}`);
  return value;
}
