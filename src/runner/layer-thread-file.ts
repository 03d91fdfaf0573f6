// The file a LayerPool thread starts from. Its own module, without node:worker_threads, so that the
// bundled `stratum slice` can choose its file as it starts and a small model's slice, which starts
// no threads, still never loads that module.
let file = new URL('./layer-worker.js', import.meta.url);

export const layerThreadFile = (): URL => file;

/** Layer threads start from `entry` from now on (the bundled slice's: cli/layer-thread-entry.cts). */
export function setLayerThreadFile(entry: URL): void {
  file = entry;
}
