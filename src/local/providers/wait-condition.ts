import type { LocalServices } from '../service-interfaces';
import { jsonResponse, type LocalRequest, type LocalResponse } from '../http';
import { generatedName, shortId } from './names';
import type { ResourceProvider } from './provider';

export const WAIT_CONDITION_PREFIX = '/_fw/wait-condition/';

interface Signal {
  Status: 'SUCCESS' | 'FAILURE';
  UniqueId: string;
  Reason?: string;
  Data?: string;
}

/** Signals received per handle id (in memory: a restart rolls back a stack that was waiting). */
const signalsByCloud = new WeakMap<LocalServices, Map<string, { signals: Signal[]; changed: Set<() => void> }>>();

function handleState(cloud: LocalServices, id: string) {
  let handles = signalsByCloud.get(cloud);
  if (!handles) signalsByCloud.set(cloud, (handles = new Map()));
  let state = handles.get(id);
  if (!state) handles.set(id, (state = { signals: [], changed: new Set() }));
  return state;
}

/** `AWS::CloudFormation::WaitConditionHandle`: its Ref is the URL a signal is PUT to (on AWS a presigned S3 URL). */
export const waitConditionHandleProvider: ResourceProvider = {
  create(_properties, context) {
    const url = `${context.cloud.baseUrl}${WAIT_CONDITION_PREFIX}${shortId(20)}`;
    return { physicalId: url };
  },
};

/**
 * `AWS::CloudFormation::WaitCondition`: the operation waits until the handle receives
 * `Count` SUCCESS signals; a FAILURE signal or the `Timeout` (seconds) fails the resource.
 */
export const waitConditionProvider: ResourceProvider = {
  async create(properties, context) {
    const handleId = String(properties.Handle ?? '').split(WAIT_CONDITION_PREFIX)[1];
    if (!handleId) throw new Error(`Handle must be the Ref of an AWS::CloudFormation::WaitConditionHandle, got ${JSON.stringify(properties.Handle)}`);
    const count = Number(properties.Count ?? 1);
    const timeout = Number(properties.Timeout);
    if (!Number.isFinite(timeout) || timeout < 0 || timeout > 43200) throw new Error(`Timeout must be a number of seconds up to 43200, got ${JSON.stringify(properties.Timeout)}`);
    const state = handleState(context.cloud, handleId);
    const signals = await new Promise<Signal[]>((resolve, reject) => {
      const check = () => {
        const failure = state.signals.find((signal) => signal.Status === 'FAILURE');
        if (failure) finish(new Error(`WaitCondition received failed message: '${failure.Reason ?? ''}' for uniqueId: ${failure.UniqueId}`));
        else if (state.signals.length >= count) finish(undefined);
      };
      const timer = setTimeout(() => finish(new Error(`WaitCondition timed out. Received ${state.signals.length} conditions when expecting ${count}`)), timeout * 1000);
      const aborted = () => finish(new Error('Resource creation cancelled'));
      const finish = (error: Error | undefined) => {
        clearTimeout(timer);
        state.changed.delete(check);
        context.signal?.removeEventListener('abort', aborted);
        if (error) reject(error);
        else resolve(state.signals.slice(0, count));
      };
      if (context.signal?.aborted) return aborted();
      context.signal?.addEventListener('abort', aborted);
      state.changed.add(check);
      check();
    });
    const data = Object.fromEntries(signals.map((signal) => [signal.UniqueId, signal.Data ?? '']));
    return { physicalId: generatedName(context.stackName, context.logicalId), attributes: { Data: JSON.stringify(data) } };
  },
};

/** `PUT <handle URL>` with `{"Status":"SUCCESS","UniqueId":"…","Data":"…","Reason":"…"}`, what cfn-signal and curl send. */
export function signalWaitCondition(cloud: LocalServices, request: LocalRequest): LocalResponse {
  const handleId = request.path.slice(WAIT_CONDITION_PREFIX.length);
  const known = cloud.resources('AWS::CloudFormation::WaitConditionHandle').some(({ record }) => record.physicalId.endsWith(`${WAIT_CONDITION_PREFIX}${handleId}`));
  if (!known) return jsonResponse({ message: `No wait condition handle ${handleId}` }, 404);
  if (request.method !== 'PUT') return jsonResponse({ message: 'Signal a wait condition with PUT' }, 405);
  let signal: Signal;
  try {
    signal = JSON.parse(request.body.toString('utf8')) as Signal;
  } catch {
    return jsonResponse({ message: 'The signal must be JSON: {"Status":"SUCCESS","UniqueId":"…"}' }, 400);
  }
  if (signal.Status !== 'SUCCESS' && signal.Status !== 'FAILURE') return jsonResponse({ message: `Status must be SUCCESS or FAILURE, got ${JSON.stringify(signal.Status)}` }, 400);
  const state = handleState(cloud, handleId);
  // As on AWS, a second signal with the same UniqueId replaces the first.
  state.signals = [...state.signals.filter((existing) => existing.UniqueId !== String(signal.UniqueId)), { ...signal, UniqueId: String(signal.UniqueId) }];
  for (const check of [...state.changed]) check();
  return { status: 200, body: '' };
}
