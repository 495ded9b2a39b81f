// SPDX-License-Identifier: Apache-2.0
// ONNX Runtime's own per-node profile of one model, for
// bench/layers_vs_ort.py:
//   NODE_PATH=<dir with onnxruntime-node> node ort_profile.js MODEL.onnx THREADS SHAPE SECONDS PREFIX
// Same session options as ort_time.js; runs for SECONDS after 3 warm-up
// runs with ONNX Runtime's profiler on (it adds a little time to each
// node), then prints the path of the Chrome-trace JSON it wrote
// (PREFIX_<date>.json).
const ort = require('onnxruntime-node');

async function main() {
  const [model, threads, shapeText, seconds, prefix] = process.argv.slice(2);
  const shape = shapeText.split(',').map(Number);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads), interOpNumThreads: 1,
    graphOptimizationLevel: 'all', executionMode: 'sequential',
    enableProfiling: true, profileFilePrefix: prefix});
  const size = shape.reduce((a, b) => a * b, 1);
  const data = Float32Array.from({length: size}, () => Math.random());
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', data, shape)};
  for (let i = 0; i < 3; i++) await session.run(feeds);
  const end = Date.now() + 1000 * Number(seconds);
  while (Date.now() < end) await session.run(feeds);
  session.endProfiling();
}

main().catch((error) => {
  console.error(`ort_profile: ${error.message}`);
  process.exit(1);
});
