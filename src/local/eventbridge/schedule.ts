/** When schedule expressions fire: `rate(5 minutes)` and six-field `cron(…)`, in UTC. */

const UNIT_MS: Record<string, number> = { minute: 60_000, minutes: 60_000, hour: 3_600_000, hours: 3_600_000, day: 86_400_000, days: 86_400_000 };

export function rateInterval(expression: string): number | undefined {
  const match = /^rate\((\d+)\s+(minutes?|hours?|days?)\)$/.exec(expression.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2]] : undefined;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

function fieldMatches(field: string, value: number, names: string[] = [], base = 0): boolean {
  if (field === '*' || field === '?') return true;
  return field.split(',').some((part) => {
    const [range, stepText] = part.split('/');
    const step = stepText ? Number(stepText) : 1;
    const parse = (text: string) => {
      const index = names.indexOf(text.toUpperCase());
      return index === -1 ? Number(text.replace(/[LW#].*$/, '')) : index + base;
    };
    let low: number;
    let high: number;
    if (range === '*') {
      low = -Infinity;
      high = Infinity;
    } else if (range.includes('-')) {
      [low, high] = range.split('-').map(parse);
    } else {
      low = parse(range);
      high = stepText ? Infinity : low;
    }
    if (value < low || value > high) return false;
    return Number.isFinite(low) ? (value - low) % step === 0 : value % step === 0;
  });
}

/** Whether `cron(min hour day-of-month month day-of-week year)` fires in the minute of `time`. */
export function cronMatches(expression: string, time: Date): boolean {
  const match = /^cron\((.+)\)$/.exec(expression.trim());
  if (!match) return false;
  const fields = match[1].trim().split(/\s+/);
  if (fields.length !== 6) return false;
  const [minute, hour, dayOfMonth, month, dayOfWeek, year] = fields;
  return (
    fieldMatches(minute, time.getUTCMinutes()) &&
    fieldMatches(hour, time.getUTCHours()) &&
    fieldMatches(dayOfMonth, time.getUTCDate()) &&
    fieldMatches(month, time.getUTCMonth() + 1, MONTHS, 1) &&
    fieldMatches(dayOfWeek, time.getUTCDay() + 1, DAYS, 1) &&
    fieldMatches(year, time.getUTCFullYear())
  );
}
