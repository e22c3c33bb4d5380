export { Scheduler, type CronRunView } from './scheduler.js';
export { BackgroundQueue } from './backgroundQueue.js';
export { schedulerModule } from './schedulerModule.js';
