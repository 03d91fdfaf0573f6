// The legacy download rule (v0.1, v0.2): a task's file can be fetched once. The output is deleted
// after it has been delivered whole; while one download runs a second one is refused, and a
// download that breaks off leaves the file for another try. After that: 404 URE006.
// The in-flight set is per process: with several API processes two simultaneous first downloads
// of one task could both succeed (the second deletion then finds nothing).
import { ApiError, fileNotFound } from './errors.js';
import type { TaskRecord } from './model.js';
import type { Download, OutputService } from './output-service.js';

export interface OneTimeDownload {
  download: Download;
  /** call once the response ended: delivered → the output is deleted; otherwise released */
  done(delivered: boolean): Promise<void>;
}

export class OneTimeDownloads {
  private readonly inFlight = new Set<string>();

  constructor(private readonly outputs: OutputService) {}

  async take(accountId: string, task: TaskRecord): Promise<OneTimeDownload> {
    if (task.status !== 'finished' || !task.output) {
      throw fileNotFound(`no file for task ${task.id}: it is ${task.status}, not finished`);
    }
    const outputId = task.output.outputId;
    const gone = () => fileNotFound(`no file for task ${task.id}: it was downloaded already (a download works once) or has expired`);
    if (this.inFlight.has(outputId)) throw gone();
    this.inFlight.add(outputId);
    let download: Download;
    try {
      download = await this.outputs.open(accountId, outputId);
    } catch (err) {
      this.inFlight.delete(outputId);
      if (err instanceof ApiError && err.code === 'URE006') throw gone();
      throw err;
    }
    let finished = false;
    return {
      download,
      done: async (delivered) => {
        if (finished) return;
        finished = true;
        try {
          if (delivered) await this.outputs.remove(download.output);
        } finally {
          this.inFlight.delete(outputId);
        }
      },
    };
  }
}
