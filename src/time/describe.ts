/** Human-readable cron, via cronstrue, in 24-hour time with the zone named. */
import cronstrue from 'cronstrue';

export function describeCron(expression: string, timezone: string): string {
  try {
    const text = cronstrue.toString(expression, { use24HourTimeFormat: true, throwExceptionOnParseError: true });
    return `${text} (${timezone})`;
  } catch {
    return `${expression} (${timezone})`;
  }
}
