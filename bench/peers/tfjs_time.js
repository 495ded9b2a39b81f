#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// bench/peers/tfjs_time.js - time a TF.js graph model, as a peer for
// `tfaot bench`.
//
//   node tfjs_time.js --model m/model.json --feed input:1,224,224,3[:float32]
//        [--feed ...] [--fetch name ...] [--backend wasm|cpu]
//        [--iters N] [--min_time SECONDS]
//
// Loads model.json and its weight shards from disk, feeds random inputs
// (floats uniform in [0, 1), like `tfaot bench`; integer inputs zero), warms
// up, then times model.execute() + dataSync() of every output (the work is
// only done when results are read) for at least --iters runs and
// --min_time seconds. Prints one JSON object:
//   {"backend": "wasm", "simd": true, "threads": 1, "iterations": 20,
//    "median_ms": 12.3, "p90_ms": 13.0, "min_ms": 12.0}
// Errors go to stderr with exit code 1.
'use strict';

const fs = require('fs');
const path = require('path');

function fail(message) {
  process.stderr.write(`tfjs_time: error: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const opts = {feeds: [], fetches: [], backend: 'wasm', iters: 10,
                minTime: 1.0};
  for (let i = 0; i < argv.length; ++i) {
    const value = () => {
      if (i + 1 >= argv.length) fail(`${argv[i]} needs a value`);
      return argv[++i];
    };
    switch (argv[i]) {
      case '--model': opts.model = value(); break;
      case '--feed': opts.feeds.push(value()); break;
      case '--fetch': opts.fetches.push(value()); break;
      case '--backend': opts.backend = value(); break;
      case '--iters': opts.iters = Number(value()); break;
      case '--min_time': opts.minTime = Number(value()); break;
      default: fail(`unknown argument '${argv[i]}'`);
    }
  }
  if (!opts.model) fail('--model is required');
  if (!opts.feeds.length) fail('give at least one --feed name:shape');
  if (!['wasm', 'cpu'].includes(opts.backend)) {
    fail(`--backend must be wasm or cpu, not '${opts.backend}'`);
  }
  return opts;
}

// name:d0,d1,...[:dtype]
function parseFeed(text) {
  const [name, dims, dtype = 'float32'] = text.split(':');
  const shape = (dims || '').split(',').filter((d) => d !== '').map(Number);
  if (!name || shape.some((d) => !Number.isInteger(d) || d < 0)) {
    fail(`bad --feed '${text}' (want name:d0,d1,...[:dtype])`);
  }
  return {name, shape, dtype};
}

// An IOHandler reading the model and its shards with fs.
function fileHandler(tf, modelPath) {
  const json = JSON.parse(fs.readFileSync(modelPath, 'utf8'));
  const dir = path.dirname(path.resolve(modelPath));
  return {
    load: async () => tf.io.getModelArtifactsForJSON(json, async (manifest) => {
      const shards = [];
      for (const group of manifest) {
        for (const p of group.paths || []) {
          shards.push(fs.readFileSync(path.resolve(dir, decodeURIComponent(p))));
        }
      }
      const all = Buffer.concat(shards);
      return [tf.io.getWeightSpecs(manifest),
              all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength)];
    }),
  };
}

function percentile(sorted, q) {
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tf = require('@tensorflow/tfjs-core');
  const converter = require('@tensorflow/tfjs-converter');
  if (opts.backend === 'wasm') {
    const wasm = require('@tensorflow/tfjs-backend-wasm');
    // The .wasm binaries ship next to the package's JavaScript.
    const dist = path.dirname(
        require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    wasm.setWasmPaths(dist + path.sep);
  } else {
    require('@tensorflow/tfjs-backend-cpu');
  }
  if (!(await tf.setBackend(opts.backend))) {
    fail(`cannot start the ${opts.backend} backend`);
  }
  await tf.ready();
  const model = await converter.loadGraphModel(fileHandler(tf, opts.model));

  const inputs = {};
  for (const feed of opts.feeds.map(parseFeed)) {
    const size = feed.shape.reduce((a, b) => a * b, 1);
    inputs[feed.name] = feed.dtype.startsWith('float')
        ? tf.randomUniform(feed.shape, 0, 1, 'float32', 1)
        : tf.zeros(feed.shape, feed.dtype === 'bool' ? 'bool' : 'int32');
    if (inputs[feed.name].size !== size) fail(`bad shape for ${feed.name}`);
  }
  const fetches = opts.fetches.length ? opts.fetches : undefined;
  const run = () => {
    let outputs = model.execute(inputs, fetches);
    if (!Array.isArray(outputs)) outputs = [outputs];
    for (const t of outputs) t.dataSync();
    tf.dispose(outputs);
  };

  const warmEnd = Date.now() + 100 * opts.minTime;
  for (let i = 0; i < 2 || Date.now() < warmEnd; ++i) run();
  const times = [];
  const start = process.hrtime.bigint();
  while (times.length < opts.iters ||
         Number(process.hrtime.bigint() - start) / 1e9 < opts.minTime) {
    const t0 = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  const result = {
    backend: opts.backend,
    tfjs_version: tf.version_core,
    iterations: times.length,
    median_ms: percentile(times, 0.5),
    p90_ms: percentile(times, 0.9),
    min_ms: times[0],
  };
  if (opts.backend === 'wasm') {
    result.simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
    result.threads = require('@tensorflow/tfjs-backend-wasm').getThreadsCount();
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((e) => fail(e && e.message ? e.message : String(e)));
