// The legacy download rule (v0.1, v0.2): a task's file can be fetched once. The output is deleted
// after it has been delivered whole; while one download runs a second one is refused, and a
// download that breaks off leaves the file for another try. After that: 404 URE006.
// Which download runs is claimed in the metadata store, so the rule holds across API processes:
// of two simultaneous first downloads through any processes, one is served and the other refused.
import { ApiError, fileNotFound } from './errors.js';
import type { TaskRecord } from './model.js';
import type { Download, OutputService } from './output-service.js';

export interface OneTimeDownload {
  download: Download;
  /** call once the response ended: delivered → the output is deleted; otherwise released */
  done(delivered: boolean): Promise<void>;
}

/** How long a claim holds a download before another try may take over (a stalled or dead one). */
const CLAIM_MS = 10 * 60_000;
/** A refused claim looks again this often, this many ms apart, for a download that was just finishing. */
const SETTLE_CHECKS = 4;
const SETTLE_STEP_MS = 50;

export class OneTimeDownloads {
  constructor(private readonly outputs: OutputService) {}

  async take(accountId: string, task: TaskRecord): Promise<OneTimeDownload> {
    if (task.status !== 'finished' || !task.output) {
      throw fileNotFound(`no file for task ${task.id}: it is ${task.status}, not finished`);
    }
    const outputId = task.output.outputId;
    const gone = () => fileNotFound(`no file for task ${task.id}: it was downloaded already (a download works once) or has expired`);
    if (!(await this.outputs.claimDownload(outputId, CLAIM_MS))) {
      // a download that has just ended holds the claim a few more milliseconds, while its output is
      // deleted (a request in that window is told the file is gone, not invited to try again) or
      // released (a client retrying at once after breaking off gets the file)
      let claimed = false;
      for (let i = 0; i < SETTLE_CHECKS && !claimed; i++) {
        await new Promise((r) => setTimeout(r, SETTLE_STEP_MS));
        if (!(await this.outputs.exists(accountId, outputId))) throw gone();
        claimed = await this.outputs.claimDownload(outputId, CLAIM_MS);
      }
      // another request holds the download: it may yet break off and leave the file
      if (!claimed) throw fileNotFound(
        `task ${task.id}'s file is being downloaded by another request (a download works once); if that download breaks off, the file can be taken again`,
      );
    }
    let download: Download;
    try {
      download = await this.outputs.open(accountId, outputId);
    } catch (err) {
      await this.outputs.releaseDownload(outputId);
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
          await this.outputs.releaseDownload(outputId);
        }
      },
    };
  }
}
