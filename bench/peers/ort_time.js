// SPDX-License-Identifier: Apache-2.0
// ONNX Runtime (onnxruntime-node, CPU execution provider: MLAS) latency of
// one model, for bench/cpu_peers.py:
//   NODE_PATH=<dir with onnxruntime-node> node ort_time.js MODEL.onnx THREADS SHAPE MIN_SECONDS
// SHAPE is the input's dimensions, e.g. 1,3,224,224. All graph
// optimizations, sequential execution, THREADS intra-op threads; inputs
// uniform in [0, 1); 3 warm-up runs, then at least 10 runs and
// MIN_SECONDS. Prints one JSON line with the median and minimum in ms.
const ort = require('onnxruntime-node');

async function main() {
  const [model, threads, shapeText, minSeconds] = process.argv.slice(2);
  const shape = shapeText.split(',').map(Number);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads), interOpNumThreads: 1,
    graphOptimizationLevel: 'all', executionMode: 'sequential'});
  const size = shape.reduce((a, b) => a * b, 1);
  const data = Float32Array.from({length: size}, () => Math.random());
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', data, shape)};
  for (let i = 0; i < 3; i++) await session.run(feeds);
  const times = [];
  const end = Date.now() + 1000 * Number(minSeconds);
  while (Date.now() < end || times.length < 10) {
    const t0 = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({median_ms: times[times.length >> 1],
                              min_ms: times[0], runs: times.length}));
}
main().catch((e) => { console.error(String(e)); process.exit(1); });
