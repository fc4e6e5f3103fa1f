import Module from 'node:module';
import { ConfigError } from '../errors';

/**
 * Serverless v3's own modules that plugins `require` (`serverless/lib/…`, their peer dependency):
 * fw answers the ones below with modules of its own that do the same on fw's `serverless` object,
 * whether or not the service's `node_modules` holds `serverless` (a migrating user often still
 * has v3 there, but its internals expect v3's objects, not fw's). Any other `serverless/lib/…`
 * path is left to Node: found in the user's `serverless@3` it is used as is; not found, the
 * plugin fails with one line naming the module.
 */
const SERVED: Record<string, () => unknown> = {
  'plugins/aws/package/compile/events/api-gateway/lib/rest-api': () => require('./v3-modules/api-gateway').restApi,
  'plugins/aws/package/compile/events/api-gateway/lib/resources': () => require('./v3-modules/api-gateway').resources,
  'plugins/aws/package/compile/events/api-gateway/lib/cors': () => require('./v3-modules/api-gateway').cors,
  'plugins/aws/package/compile/events/api-gateway/lib/deployment': () => require('./v3-modules/api-gateway').deployment,
  'plugins/aws/info/get-stack-info': () => require('./v3-modules/stack-info').stackInfo,
};

/** `serverless/lib/<path>` (with or without `.js`; v2's `apiGateway` folder too) → the key in SERVED. */
export function servedModule(request: string): string | undefined {
  const match = /^serverless\/lib\/(.+?)(?:\.js)?$/.exec(request);
  if (!match) return undefined;
  const path = match[1].replace('/events/apiGateway/', '/events/api-gateway/');
  return path in SERVED ? path : undefined;
}

/** A Serverless v3 module fw neither serves nor finds installed. */
export class MissingV3Module extends ConfigError {}

let installed = false;

/** Installs the answers in Node's module loader, once per process. */
export function serveV3Modules(): void {
  if (installed) return;
  installed = true;
  const loader = Module as unknown as {
    _load(request: string, parent: unknown, isMain: boolean): unknown;
  };
  const load = loader._load;
  loader._load = function (request: string, parent: unknown, isMain: boolean) {
    const served = servedModule(request);
    if (served) return SERVED[served]();
    try {
      return load.call(this, request, parent, isMain);
    } catch (error) {
      if (request.startsWith('serverless/lib/') && (error as { code?: string }).code === 'MODULE_NOT_FOUND') {
        throw new MissingV3Module(`it requires "${request}", a module of Serverless v3 itself that fw does not provide (with serverless@3 installed beside the plugin, v3's own module is used)`);
      }
      throw error;
    }
  };
}
