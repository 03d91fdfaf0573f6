// In-process task change notifications: the embedded runtime's bus, and the local delivery of the
// distributed one (src/store/postgres/pg-task-event-bus.ts feeds it from LISTEN/NOTIFY).
import type { TaskRecord } from './model.js';
import type { TaskEventBus } from './ports.js';

type Listener = (task: TaskRecord) => void;

export class LocalTaskEventBus implements TaskEventBus {
  private readonly byTask = new Map<string, Set<Listener>>();
  private readonly all = new Set<Listener>();

  publish(task: TaskRecord): void {
    for (const l of this.all) safeCall(l, task);
    const set = this.byTask.get(task.id);
    if (set) for (const l of [...set]) safeCall(l, task);
  }

  subscribe(taskId: string, listener: Listener): () => void {
    let set = this.byTask.get(taskId);
    if (!set) {
      set = new Set();
      this.byTask.set(taskId, set);
    }
    set.add(listener);
    return () => {
      const s = this.byTask.get(taskId);
      if (!s) return;
      s.delete(listener);
      if (s.size === 0) this.byTask.delete(taskId);
    };
  }

  subscribeAll(listener: Listener): () => void {
    this.all.add(listener);
    return () => this.all.delete(listener);
  }

  /** the tasks someone in this process listens to */
  watchedTasks(): string[] {
    return [...this.byTask.keys()];
  }

  /** number of per-task listeners (tests check that closed streams unsubscribe) */
  listenerCount(taskId: string): number {
    return this.byTask.get(taskId)?.size ?? 0;
  }
}

function safeCall(l: Listener, task: TaskRecord): void {
  try {
    l(task);
  } catch {
    /* a listener's failure must not stop the others */
  }
}
