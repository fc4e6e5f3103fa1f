import Module from 'node:module';

/**
 * The names a service file or plugin imports fw by: its npm package, and the bare `fw` that
 * services written before the package had its own name use (npm's `fw` is another library).
 */
export const FW_MODULE_NAMES: ReadonlySet<string> = new Set(['fw-deploy', 'fw']);

let installed = false;

/**
 * `require('fw-deploy')` (or `require('fw')`) from a plugin or a service file gets the running
 * fw's own module, not another copy: constructs a service file builds must be the classes fw
 * synthesizes (`instanceof` holds), also when fw runs as its one-file bundle.
 */
export function shareFwModule(load: () => unknown): void {
  if (installed) return;
  installed = true;
  const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
  const original = loader._load;
  // Loaded once: in the bundle each `load()` wraps the module in a new exports object.
  let shared: unknown;
  loader._load = function loadShared(request: string, ...rest: unknown[]): unknown {
    if (FW_MODULE_NAMES.has(request)) return (shared ??= load());
    return original.call(this, request, ...rest);
  };
}
