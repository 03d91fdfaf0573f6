// The runner's writes to a task, each a compare-and-set on the task's status so that a result
// arriving after a cancellation (or a delete) changes nothing.
import type { Logger } from 'pino';
import { nowIso7 } from '../service/dates.js';
import type { Metrics } from '../service/metrics.js';
import type { TaskRecord } from '../service/model.js';
import type { MetadataStore, TaskEventBus } from '../service/ports.js';

const IN_WORK = ['started', 'running'] as const;
const ACTIVE = ['queued', 'started', 'running'] as const;

export class TaskTransitions {
  constructor(
    private readonly store: MetadataStore,
    private readonly events: TaskEventBus,
    private readonly metrics: Metrics,
    private readonly log: Logger,
  ) {}

  private async apply(
    taskId: string,
    from: readonly TaskRecord['status'][],
    patch: Partial<TaskRecord>,
  ): Promise<TaskRecord | null> {
    const task = await this.store.updateTask(taskId, from, patch);
    if (task) this.events.publish(task);
    return task;
  }

  /** a worker took the task */
  started(taskId: string): Promise<TaskRecord | null> {
    return this.apply(taskId, ACTIVE, { status: 'started', startDate: nowIso7(), endDate: null, progress: 0 });
  }

  progress(taskId: string, progress: number): Promise<TaskRecord | null> {
    return this.apply(taskId, IN_WORK, { status: 'running', progress });
  }

  async finished(taskId: string, patch: Partial<TaskRecord>): Promise<TaskRecord | null> {
    const task = await this.apply(taskId, IN_WORK, { ...patch, status: 'finished', progress: 1, endDate: nowIso7() });
    if (task) this.metrics.tasksEnded.inc(1, { status: 'finished' });
    return task;
  }

  /** ends the task with SF000 and a message for the user */
  async failed(taskId: string, message: string): Promise<TaskRecord | null> {
    const task = await this.apply(taskId, ACTIVE, {
      status: 'failed',
      endDate: nowIso7(),
      error: { errorCode: 'SF000', message },
    });
    if (task) {
      this.metrics.tasksEnded.inc(1, { status: 'failed' });
      this.log.info({ taskId, reason: message }, 'task failed');
    }
    return task;
  }

  /** back to the queue (another attempt, or resumed after a restart) */
  requeued(taskId: string): Promise<TaskRecord | null> {
    return this.apply(taskId, ACTIVE, { status: 'queued', progress: 0, startDate: null });
  }
}
