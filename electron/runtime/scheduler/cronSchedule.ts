import { Cron } from 'croner';
import { AgentDeskError } from '../errors.js';

/** Most fire times looked at in one catch-up (a job every second down for a week stays cheap). */
const MAX_CATCH_UP = 1000;

/** A parsed cron expression in a time zone. */
export class CronSchedule {
  private readonly cron: Cron;

  constructor(
    readonly expression: string,
    readonly timezone: string,
  ) {
    try {
      Intl.DateTimeFormat('en-US', { timeZone: timezone });
    } catch {
      throw new AgentDeskError('invalid_params', `unknown time zone "${timezone}"; use an IANA name such as "Europe/Berlin"`, {
        issues: [{ path: 'timezone', message: 'unknown time zone' }],
      });
    }
    try {
      this.cron = new Cron(expression, { timezone, paused: true });
    } catch (error) {
      throw new AgentDeskError('invalid_params', `invalid cron expression "${expression}": ${(error as Error).message}`, {
        issues: [{ path: 'schedule', message: (error as Error).message }],
      });
    }
  }

  /** The first fire time strictly after `afterMs`, or undefined when the schedule never fires again. */
  next(afterMs: number): number | undefined {
    return this.cron.nextRun(new Date(afterMs))?.getTime();
  }

  /** Fire times from `firstMs` (itself a fire time) up to `untilMs`, inclusive, oldest first. */
  between(firstMs: number, untilMs: number): number[] {
    const times: number[] = [];
    for (let t: number | undefined = firstMs; t !== undefined && t <= untilMs && times.length < MAX_CATCH_UP; t = this.next(t)) {
      times.push(t);
    }
    return times;
  }
}
