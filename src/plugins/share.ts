import Module from 'node:module';

let installed = false;

/**
 * `require('fw')` from a plugin or a service file gets the running fw's own module, not another
 * copy: constructs a service file builds must be the classes fw synthesizes (`instanceof` holds),
 * also when fw runs as its one-file bundle.
 */
export function shareFwModule(load: () => unknown): void {
  if (installed) return;
  installed = true;
  const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
  const original = loader._load;
  loader._load = function loadShared(request: string, ...rest: unknown[]): unknown {
    if (request === 'fw') return load();
    return original.call(this, request, ...rest);
  };
}
