// An in-memory cache of task records for the embedded SQLite store.
import type { TaskRecord } from '../../service/model.js';

/**
 * Tasks most recently read or written, by id. Only valid because the embedded server is the one
 * process that writes tasks to its database (DESIGN: one server per data directory); task reads
 * are the hottest request and this saves a query and six JSON parses per read.
 */
export class TaskCache {
  private readonly map = new Map<string, TaskRecord>();
  constructor(private readonly max = 5000) {}
  get(id: string): TaskRecord | undefined {
    return this.map.get(id);
  }
  /** the record is frozen: readers share it */
  set(task: TaskRecord): void {
    Object.freeze(task);
    this.map.delete(task.id);
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
    this.map.set(task.id, task);
  }
  delete(id: string): void {
    this.map.delete(id);
  }
}
