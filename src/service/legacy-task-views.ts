// What the legacy versions read off a task: GetProgress's string and GetPrintingInformation.
import { fileNotFound } from './errors.js';
import type { TaskInfo, TaskRecord } from './model.js';

/**
 * Progress as the public clients compare it: a JSON string, "1" only when finished, "-1" when the
 * task failed or was cancelled (it will never reach 1), else two decimals rounded down ("0.42").
 */
export function legacyProgress(task: TaskRecord): string {
  if (task.status === 'finished') return '1';
  if (task.status === 'failed' || task.status === 'cancelled') return '-1';
  // the small epsilon keeps 0.29 from printing as 0.28 (0.29 × 100 = 28.999…)
  const p = Math.min(0.99, Math.max(0, Math.floor(task.progress * 100 + 1e-9) / 100));
  return String(p);
}

/** time, length, weight of a finished task; URE006 (404) before that. */
export function printingInformation(task: TaskRecord): TaskInfo {
  if (task.status !== 'finished' || !task.info) {
    throw fileNotFound(`no printing information for task ${task.id}: it is ${task.status}, not finished`);
  }
  return { time: task.info.time, length: task.info.length, weight: task.info.weight };
}
