'use strict';
// Which bundle each module of the CLI lands in (see scripts/bundle.js and docs/architecture.md,
// "Bundles"). The core bundle (dist/fw.js) holds what `fw package` and the other short commands
// run; a chunk (dist/fw-<name>.js) holds a part of fw that only some commands use, and is loaded
// the first time one of its modules is required.
//
// A module matching a chunk's pattern goes to that chunk, unless the core imports it with a static
// `import` (it would be loaded with its importer anyway). A module matching no pattern goes to the
// core when the core reaches it, else to the chunk that reaches it first. A chunk is only ever entered
// through `require()` (or `import()`), so it is loaded when the code that needs it runs.

/** The chunks, in order of precedence: a module two chunks reach goes to the first. Names are lower-case letters (bin/fw.js finds dist/fw-<name>.js). */
const CHUNKS = [
  // The local cloud (fw local start, fw deploy --local) and the WebSocket library it serves with;
  // fw generate-event's samples, built by the local cloud's own event builders.
  { name: 'local', pattern: /^(src\/local\/|src\/event-samples\/|node_modules\/ws\/)/ },
  // fw dev's watch loop and file watcher.
  { name: 'dev', pattern: /^(src\/dev\/|node_modules\/chokidar\/|node_modules\/readdirp\/)/ },
  // Several services as one application (fw deploy in a compose folder, fw outputs, api:deploy).
  { name: 'compose', pattern: /^(src\/compose\/|src\/cli\/compose\.ts$)/ },
  // The Serverless v3 plugin surface: loaded only for a service that lists plugins.
  { name: 'plugins', pattern: /^src\/(plugins\/(v3[^/]*|manager|load)|cli\/plugin-commands)\.ts$/ },
  // fw create's templates and prompts.
  { name: 'create', pattern: /^src\/create\// },
  // The full YAML library: the common subset of YAML is read by src/formats/yaml-subset.ts.
  { name: 'yaml', pattern: /^node_modules\/yaml\// },
];

/**
 * Assigns every module of `metafile` (an esbuild metafile of the whole CLI bundled from `entry`) to
 * 'core' or a chunk name: a Map from the metafile's module path to its bundle.
 */
function assignModules(metafile, entry, chunks = CHUNKS) {
  const inputs = metafile.inputs;
  const edges = (file) => (inputs[file]?.imports ?? []).filter((edge) => !edge.external && inputs[edge.path] !== undefined);
  const chunkOf = (file) => chunks.find((chunk) => chunk.pattern.test(file))?.name;
  const owner = new Map([[entry, 'core']]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const edge of edges(file)) {
      if (owner.has(edge.path)) continue;
      if (chunkOf(edge.path) !== undefined && edge.kind !== 'import-statement') continue;
      owner.set(edge.path, 'core');
      queue.push(edge.path);
    }
  }
  // Chunks: grow each from the modules of its own that assigned modules reach, until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const chunk of chunks) {
      const seeds = [...owner.keys()].flatMap((file) => edges(file).map((edge) => edge.path)).filter((file) => !owner.has(file) && chunkOf(file) === chunk.name);
      const pending = [...new Set(seeds)];
      for (const file of pending) owner.set(file, chunk.name);
      while (pending.length > 0) {
        const file = pending.shift();
        for (const edge of edges(file)) {
          if (owner.has(edge.path)) continue;
          const own = chunkOf(edge.path);
          if (own !== undefined && own !== chunk.name) continue;
          owner.set(edge.path, chunk.name);
          pending.push(edge.path);
          changed = true;
        }
      }
      if (seeds.length > 0) changed = true;
    }
  }
  return owner;
}

module.exports = { CHUNKS, assignModules };
