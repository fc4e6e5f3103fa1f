import known from './known-plugins.json';

/** The plugins `fw plugin list` and `fw plugin search` show: the list in known-plugins.json, shipped with fw. */
export const KNOWN_PLUGINS: ReadonlyArray<{ name: string; description: string }> = known.plugins;
