// One worker thread of test/threads.test.mjs: its own instance of the
// component, answering the same specs as the main thread.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { outputs } from './outputs.mjs';

parentPort.postMessage({ threadId, ...outputs(workerData.specs, workerData.rounds) });
