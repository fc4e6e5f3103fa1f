/** The environment for a child `fw`: plain output whatever the test runner (uvu sets FORCE_COLOR) asked for. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra };
  delete env.FORCE_COLOR;
  return env;
}
