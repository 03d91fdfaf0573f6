// A layer-batch thread's entry file, started by LayerPool; stays alive for the next batch
// (layer-batch-port.ts does the work).
import { parentPort } from 'node:worker_threads';
import { serveLayerBatches } from './layer-batch-port.js';

if (!parentPort) throw new Error('layer-worker.js runs as a worker thread');
serveLayerBatches(parentPort);
