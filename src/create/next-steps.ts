import { relative, sep } from 'node:path';

/** What to type after creating a service in `dir`, seen from `cwd`, each with why. */
export function nextSteps(dir: string, cwd: string): string[] {
  const steps: Array<[string, string]> = [];
  const path = relative(cwd, dir);
  if (path !== '') steps.push([`cd ${shellQuote(path.split(sep).join('/'))}`, '']);
  steps.push(['fw deploy --local', 'deploy to the local cloud on this machine']);
  steps.push(['fw deploy', 'deploy to AWS with your credentials']);
  const width = Math.max(...steps.filter(([, why]) => why !== '').map(([command]) => command.length));
  return steps.map(([command, why]) => (why === '' ? command : `${command.padEnd(width)}  # ${why}`));
}

function shellQuote(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
