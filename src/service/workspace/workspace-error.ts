// A workspace that cannot be sliced. `path` is where in the JSON the problem is
// (`Models[1].ModelIndices[42]`), already part of the message; the task start answers URE000 with it.
export class WorkspaceError extends Error {
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

/** Throws a WorkspaceError whose message starts with the JSON path. */
export function failAt(path: string, problem: string): never {
  throw new WorkspaceError(`${path} ${problem}`, path);
}
