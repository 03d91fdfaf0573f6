// A small client of the legacy RPC interface (v0.1, v0.2) written the way the public Node.js
// clients call it: every call a POST with a JSON body and the subscription key header, the answer
// read from `body.result`, failures from `body.statusCode`, `body.statusDescription`, `body.error`.

export class LegacyCallError extends Error {
  constructor(
    readonly call: string,
    readonly status: number,
    readonly errorCode: string | undefined,
    readonly body: unknown,
  ) {
    super(`${call}: HTTP ${status} ${errorCode ?? ''} ${JSON.stringify(body)?.slice(0, 300)}`);
    this.name = 'LegacyCallError';
  }
}

export interface DownloadedFile {
  fileName: string;
  bytes: Uint8Array;
}

export class LegacyClient {
  constructor(
    /** e.g. http://127.0.0.1:8080/v0.2 */
    readonly base: string,
    readonly key: string,
    readonly log: (line: string) => void = () => undefined,
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { 'Ocp-Apim-Subscription-Key': this.key, ...extra };
  }

  private async answer(call: string, res: Response): Promise<Record<string, unknown>> {
    const text = await res.text();
    let body: { result?: Record<string, unknown>; error?: { errorCode?: string } } | undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      throw new LegacyCallError(call, res.status, undefined, text.slice(0, 200));
    }
    if (res.status !== 200 || !body?.result) throw new LegacyCallError(call, res.status, body?.error?.errorCode, body);
    return body.result;
  }

  /** POST {base}/{call} with a JSON body; returns `result`. */
  async rpc(call: string, body: unknown = {}): Promise<Record<string, unknown>> {
    const res = await fetch(`${this.base}/${call}`, {
      method: 'POST',
      headers: this.headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify(body),
    });
    const result = await this.answer(call, res);
    this.log(`${call} → ${JSON.stringify(result)}`);
    return result;
  }

  /** UploadFile as multipart/form-data: the text field FileName, then the file field file. */
  async uploadFile(fileName: string, bytes: Uint8Array): Promise<Record<string, unknown>> {
    const form = new FormData();
    form.append('FileName', fileName);
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), fileName);
    const res = await fetch(`${this.base}/UploadFile`, { method: 'POST', headers: this.headers(), body: form });
    const result = await this.answer('UploadFile', res);
    this.log(`UploadFile → ${JSON.stringify(result)}`);
    return result;
  }

  /** DownloadFile?taskId=…; the file name (and so the extension) from Content-Disposition. */
  async downloadFile(taskId: string, method: 'GET' | 'POST' = 'GET'): Promise<DownloadedFile> {
    const url = `${this.base}/DownloadFile?taskId=${encodeURIComponent(taskId)}`;
    const res =
      method === 'GET'
        ? await fetch(url, { headers: this.headers() })
        : await fetch(url, { method: 'POST', headers: this.headers({ 'Content-Type': 'application/json' }), body: JSON.stringify({ taskId }) });
    if (res.status !== 200) {
      const text = await res.text();
      let body: { error?: { errorCode?: string } } | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      throw new LegacyCallError('DownloadFile', res.status, body?.error?.errorCode, body ?? text.slice(0, 200));
    }
    const disposition = res.headers.get('content-disposition') ?? '';
    const fileName = /filename=("?)([^";]+)\1/.exec(disposition)?.[2] ?? 'output';
    const bytes = new Uint8Array(await res.arrayBuffer());
    this.log(`DownloadFile (${method}) → ${fileName}, ${bytes.length} bytes`);
    return { fileName, bytes };
  }

  /** GetProgress until "1" (done) or "-1" (failed); the progress travels as a string. */
  async waitForEnd(taskId: string, timeoutMs = 120_000, everyMs = 200): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const { progress } = await this.rpc('GetProgress', { taskId });
      if (progress === '1' || progress === '-1') return progress;
      if (typeof progress !== 'string' || !(Number(progress) >= 0 && Number(progress) < 1)) {
        throw new Error(`GetProgress: progress ${JSON.stringify(progress)} is not a string from "0" to "1"`);
      }
      if (Date.now() > end) throw new Error(`task ${taskId} did not end within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }

  /** GetProgress until the task runs (progress above 0), for cancelling mid-slice. */
  async waitForRunning(taskId: string, timeoutMs = 60_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const { progress } = await this.rpc('GetProgress', { taskId });
      if (typeof progress === 'string' && Number(progress) !== 0) return progress;
      if (Date.now() > end) throw new Error(`task ${taskId} did not start within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Fails the flow with a message when a condition does not hold. */
export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`client check failed: ${message}`);
}

/** The second download of a legacy task must answer 404 URE006. */
export async function expectSecondDownloadRefused(client: LegacyClient, taskId: string): Promise<void> {
  try {
    await client.downloadFile(taskId, 'POST');
  } catch (err) {
    const e = err as LegacyCallError;
    expect(e.name === 'LegacyCallError' && e.status === 404 && e.errorCode === 'URE006', `second download: ${e.message}`);
    return;
  }
  throw new Error('client check failed: the second download succeeded');
}
