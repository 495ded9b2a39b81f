#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// tools/tfjs-oracle/run.js - run a TensorFlow.js graph model as a reference.
//
// Loads a TF.js graph model (model.json + weight shards) from the local file
// system, runs it with TensorFlow.js's pure-JavaScript CPU backend on inputs
// read from raw little-endian files, and writes every output as a raw file
// plus a JSON description. tfaot's end-to-end tests (test/e2e/tfjs) compare
// the code tfaot compiled against these outputs.
//
//   node run.js --model path/model.json --inputs in.json --out outdir
//
// in.json:
//   {
//     "inputs": [
//       {"name": "input_1", "dtype": "float32", "shape": [1,64,64,3],
//        "file": "x.bin"}
//     ],
//     "outputs": ["Identity"]          (optional)
//   }
// A bare array is accepted as the "inputs" list. Input files are raw
// little-endian data of the given dtype (float32, float64, float16, bfloat16,
// int8/16/32/64, uint8/16/32/64, bool); a relative "file" is relative to the
// directory of in.json. "outputs" are node names ("Identity", or
// "name:index" for a node's other outputs) or signature keys; by default the
// model's signature outputs (userDefinedMetadata's first, as TF.js does),
// else the nodes TF.js takes as outputs (model.outputs).
//
// outdir/<sanitized name>.bin gets each output (float32 or int32 raw
// little-endian; bool is written as int32 0/1), and outdir/outputs.json:
//   {"tfjs_version": "4.22.0", "backend": "cpu", "method": "execute",
//    "timing_ms": {...},
//    "outputs": [{"name": "Identity", "dtype": "float32",
//                 "file_dtype": "float32", "shape": [1,2],
//                 "file": "Identity.bin"}]}
// <sanitized name> is the name with every character outside [A-Za-z0-9_]
// replaced by '_' (and a _2, _3, ... suffix where two names would collide).
//
// Any failure prints "tfjs-oracle: error: ..." to stderr and exits with 1
// (2 for a bad command line).
'use strict';

const fs = require('fs');
const path = require('path');

const PROG = 'tfjs-oracle';

class UsageError extends Error {}
class OracleError extends Error {}

const USAGE = `usage: node run.js --model MODEL.json --inputs IN.json --out OUTDIR
                   [--async] [--verbose]

  --model FILE    TF.js graph model (model.json); weight shards are read from
                  the paths in its weightsManifest, relative to its directory
  --inputs FILE   input description (see the top of run.js)
  --out DIR       output directory (created if missing)
  --async         always use model.executeAsync (default: only when the model
                  has control-flow or dynamic-shape ops)
  --verbose       print progress and TF.js's own warnings to stderr
`;

function parseArgs(argv) {
  const opts = {async: false, verbose: false};
  for (let i = 0; i < argv.length; ++i) {
    let arg = argv[i];
    let value = null;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const takeValue = () => {
      if (value !== null) return value;
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      return argv[++i];
    };
    switch (arg) {
      case '--model': opts.model = takeValue(); break;
      case '--inputs': opts.inputs = takeValue(); break;
      case '--out': opts.out = takeValue(); break;
      case '--async': opts.async = true; break;
      case '--verbose': opts.verbose = true; break;
      case '-h':
      case '--help':
        process.stdout.write(USAGE);
        process.exit(0);
        break;
      default:
        throw new UsageError(`unknown argument '${argv[i]}'`);
    }
  }
  for (const k of ['model', 'inputs', 'out']) {
    if (!opts[k]) throw new UsageError(`--${k} is required`);
  }
  return opts;
}

function readJSON(file, what) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new OracleError(`cannot read ${what} '${file}': ${e.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new OracleError(`${what} '${file}' is not valid JSON: ${e.message}`);
  }
}

//===--- dtypes -------------------------------------------------------------===//

// Bytes per element of every dtype an input file may hold.
const DTYPE_SIZE = {
  float32: 4, float64: 8, float16: 2, bfloat16: 2,
  int8: 1, int16: 2, int32: 4, int64: 8,
  uint8: 1, uint16: 2, uint32: 4, uint64: 8,
  bool: 1,
};
// Aliases (TensorFlow's DT_* names and common short forms).
const DTYPE_ALIAS = {
  float: 'float32', double: 'float64', half: 'float16', int: 'int32',
  dt_float: 'float32', dt_double: 'float64', dt_half: 'float16',
  dt_bfloat16: 'bfloat16', dt_int8: 'int8', dt_int16: 'int16',
  dt_int32: 'int32', dt_int64: 'int64', dt_uint8: 'uint8',
  dt_uint16: 'uint16', dt_uint32: 'uint32', dt_uint64: 'uint64',
  dt_bool: 'bool',
};

function canonicalDType(dtype, where) {
  if (typeof dtype !== 'string') {
    throw new OracleError(`${where}: "dtype" must be a string`);
  }
  let d = dtype.toLowerCase();
  d = DTYPE_ALIAS[d] || d;
  if (!(d in DTYPE_SIZE)) {
    throw new OracleError(`${where}: unsupported dtype '${dtype}' (supported: ` +
                          `${Object.keys(DTYPE_SIZE).join(', ')})`);
  }
  return d;
}

function halfToFloat(h) {
  const sign = (h & 0x8000) ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * Math.pow(2, -24);
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * Math.pow(2, exp - 15);
}

// Decodes a raw little-endian buffer into {values, tfDtype}: TF.js tensors are
// float32, int32 or bool, so wider / narrower types are converted (integers
// that do not fit in int32 are an error, not silently wrapped).
function decodeRaw(buf, dtype, count, where) {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const intOut = () => new Int32Array(count);
  const checkInt = (v, i) => {
    if (v < -2147483648 || v > 2147483647) {
      throw new OracleError(`${where}: element ${i} (${v}) does not fit in ` +
                            `int32, TF.js's only integer type`);
    }
    return Number(v);
  };
  let out;
  switch (dtype) {
    case 'float32':
      out = new Float32Array(count);
      for (let i = 0; i < count; ++i) out[i] = dv.getFloat32(4 * i, true);
      return {values: out, tfDtype: 'float32'};
    case 'float64':
      out = new Float32Array(count);
      for (let i = 0; i < count; ++i) out[i] = dv.getFloat64(8 * i, true);
      return {values: out, tfDtype: 'float32'};
    case 'float16':
      out = new Float32Array(count);
      for (let i = 0; i < count; ++i) out[i] = halfToFloat(dv.getUint16(2 * i, true));
      return {values: out, tfDtype: 'float32'};
    case 'bfloat16': {
      out = new Float32Array(count);
      const tmp = new DataView(new ArrayBuffer(4));
      for (let i = 0; i < count; ++i) {
        tmp.setUint32(0, dv.getUint16(2 * i, true) << 16, true);
        out[i] = tmp.getFloat32(0, true);
      }
      return {values: out, tfDtype: 'float32'};
    }
    case 'int8':
      out = intOut();
      for (let i = 0; i < count; ++i) out[i] = dv.getInt8(i);
      return {values: out, tfDtype: 'int32'};
    case 'uint8':
      out = intOut();
      for (let i = 0; i < count; ++i) out[i] = dv.getUint8(i);
      return {values: out, tfDtype: 'int32'};
    case 'int16':
      out = intOut();
      for (let i = 0; i < count; ++i) out[i] = dv.getInt16(2 * i, true);
      return {values: out, tfDtype: 'int32'};
    case 'uint16':
      out = intOut();
      for (let i = 0; i < count; ++i) out[i] = dv.getUint16(2 * i, true);
      return {values: out, tfDtype: 'int32'};
    case 'int32':
      out = intOut();
      for (let i = 0; i < count; ++i) out[i] = dv.getInt32(4 * i, true);
      return {values: out, tfDtype: 'int32'};
    case 'uint32':
      out = intOut();
      for (let i = 0; i < count; ++i) out[i] = checkInt(dv.getUint32(4 * i, true), i);
      return {values: out, tfDtype: 'int32'};
    case 'int64':
      out = intOut();
      for (let i = 0; i < count; ++i) out[i] = checkInt(dv.getBigInt64(8 * i, true), i);
      return {values: out, tfDtype: 'int32'};
    case 'uint64':
      out = intOut();
      for (let i = 0; i < count; ++i) out[i] = checkInt(dv.getBigUint64(8 * i, true), i);
      return {values: out, tfDtype: 'int32'};
    case 'bool':
      out = new Uint8Array(count);
      for (let i = 0; i < count; ++i) out[i] = dv.getUint8(i) ? 1 : 0;
      return {values: out, tfDtype: 'bool'};
  }
  throw new OracleError(`${where}: unsupported dtype '${dtype}'`);
}

//===--- inputs -------------------------------------------------------------===//

function readInputSpec(file) {
  const spec = readJSON(file, 'input description');
  let inputs;
  let outputs = null;
  if (Array.isArray(spec)) {
    inputs = spec;
  } else if (spec && typeof spec === 'object') {
    inputs = spec.inputs === undefined ? [] : spec.inputs;
    outputs = spec.outputs === undefined ? null : spec.outputs;
    for (const k of Object.keys(spec)) {
      if (k !== 'inputs' && k !== 'outputs') {
        throw new OracleError(`${file}: unknown key "${k}" (expected ` +
                              `"inputs" and "outputs")`);
      }
    }
  } else {
    throw new OracleError(`${file}: expected an object {"inputs": [...], ` +
                          `"outputs": [...]} or an array of inputs`);
  }
  if (!Array.isArray(inputs)) {
    throw new OracleError(`${file}: "inputs" must be an array`);
  }
  if (outputs !== null &&
      (!Array.isArray(outputs) || outputs.some(o => typeof o !== 'string' || !o))) {
    throw new OracleError(`${file}: "outputs" must be an array of node names`);
  }
  const baseDir = path.dirname(path.resolve(file));
  const seen = new Set();
  const parsed = inputs.map((inp, idx) => {
    const where = `${file}: input ${idx}`;
    if (!inp || typeof inp !== 'object') throw new OracleError(`${where}: not an object`);
    const {name, shape} = inp;
    if (typeof name !== 'string' || !name) {
      throw new OracleError(`${where}: "name" must be a non-empty string`);
    }
    const w = `${file}: input '${name}'`;
    if (seen.has(name)) throw new OracleError(`${w}: given twice`);
    seen.add(name);
    const dtype = canonicalDType(inp.dtype, w);
    if (!Array.isArray(shape) ||
        shape.some(d => !Number.isInteger(d) || d < 0)) {
      throw new OracleError(`${w}: "shape" must be an array of non-negative ` +
                            `integers (got ${JSON.stringify(shape)})`);
    }
    if (typeof inp.file !== 'string' || !inp.file) {
      throw new OracleError(`${w}: "file" must be a non-empty string`);
    }
    const dataFile = path.resolve(baseDir, inp.file);
    const count = shape.reduce((a, b) => a * b, 1);
    let buf;
    try {
      buf = fs.readFileSync(dataFile);
    } catch (e) {
      throw new OracleError(`${w}: cannot read '${dataFile}': ${e.message}`);
    }
    const want = count * DTYPE_SIZE[dtype];
    if (buf.length !== want) {
      throw new OracleError(`${w}: '${dataFile}' has ${buf.length} bytes; ` +
                            `${dtype}[${shape.join(',')}] needs ${want}`);
    }
    const {values, tfDtype} = decodeRaw(buf, dtype, count, w);
    return {name, dtype, shape, values, tfDtype};
  });
  return {inputs: parsed, outputs};
}

//===--- model loading --------------------------------------------------------===//

// A tf.io.IOHandler reading model.json and its weight shards with fs
// (tf.io.fileSystem exists only in @tensorflow/tfjs-node).
function fileSystemHandler(tf, modelPath, modelJSON) {
  const dir = path.dirname(path.resolve(modelPath));
  return {
    load: async () => {
      if (modelJSON.modelTopology == null) {
        throw new OracleError(`${modelPath}: no "modelTopology"; is this a ` +
                              `TF.js graph model?`);
      }
      if (modelJSON.format != null && modelJSON.format !== 'graph-model') {
        throw new OracleError(`${modelPath}: format is '${modelJSON.format}', ` +
                              `not 'graph-model' (layers models are not supported)`);
      }
      return tf.io.getModelArtifactsForJSON(modelJSON, async (manifest) => {
        const buffers = [];
        for (const group of manifest) {
          for (const p of group.paths || []) {
            const file = path.resolve(dir, decodeURIComponent(p));
            try {
              buffers.push(fs.readFileSync(file));
            } catch (e) {
              throw new OracleError(`${modelPath}: cannot read weight shard ` +
                                    `'${file}': ${e.message}`);
            }
          }
        }
        const all = Buffer.concat(buffers);
        const weightData =
            all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
        const weightSpecs = tf.io.getWeightSpecs(manifest);
        // decodeWeights would read past the end silently-ish; check first.
        let need = 0;
        for (const s of weightSpecs) need += weightSpecBytes(s);
        if (need > weightData.byteLength) {
          throw new OracleError(`${modelPath}: the weightsManifest describes ` +
                                `${need} bytes of weights but the shards hold ` +
                                `${weightData.byteLength}`);
        }
        return [weightSpecs, weightData];
      });
    },
  };
}

function weightSpecBytes(spec) {
  const n = (spec.shape || []).reduce((a, b) => a * b, 1);
  if (spec.quantization) {
    const q = spec.quantization.dtype;
    return n * ({uint8: 1, uint16: 2, float16: 2}[q] || 4);
  }
  if (spec.dtype === 'string') return 0;  // variable length; not checked
  return n * ({float32: 4, int32: 4, bool: 1, complex64: 8}[spec.dtype] || 4);
}

// Ops that make model.execute() refuse the graph (tfjs-converter's
// model_analysis: control flow, dynamic shapes, hash tables).
const ASYNC_OPS = new Set([
  'Switch', 'Merge', 'Enter', 'Exit', 'NextIteration', 'LoopCond',
  'StatelessIf', 'If', 'StatelessWhile', 'While',
  'NonMaxSuppressionV2', 'NonMaxSuppressionV3', 'NonMaxSuppressionV4',
  'NonMaxSuppressionV5', 'Where',
  'HashTable', 'HashTableV2', 'LookupTableImport', 'LookupTableImportV2',
  'LookupTableFind', 'LookupTableFindV2', 'LookupTableSize', 'LookupTableSizeV2',
]);

function asyncOpsOf(modelJSON) {
  const found = new Set();
  const topo = modelJSON.modelTopology || {};
  const scan = (nodes) => {
    for (const n of nodes || []) if (ASYNC_OPS.has(n.op)) found.add(n.op);
  };
  scan(topo.node);
  for (const f of ((topo.library || {}).function || [])) scan(f.nodeDef);
  return [...found].sort();
}

// Default outputs: the signature's output tensors (as node names, ":0"
// dropped), else what TF.js itself takes as the outputs. Like TF.js, a
// signature in userDefinedMetadata wins over the top-level one.
function defaultOutputs(modelJSON, model) {
  const sig = (modelJSON.userDefinedMetadata || {}).signature || modelJSON.signature;
  if (sig && sig.outputs && Object.keys(sig.outputs).length > 0) {
    return Object.keys(sig.outputs).map(k => {
      const name = sig.outputs[k].name || k;
      return name.endsWith(':0') ? name.slice(0, -2) : name;
    });
  }
  return model.outputs.map(o => o.name);
}

function sanitize(name) {
  const s = name.replace(/[^A-Za-z0-9_]/g, '_');
  return s.length > 0 ? s : 'output';
}

//===--- main -----------------------------------------------------------------===//

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${PROG}: error: ${e.message}\n${USAGE}`);
      process.exit(2);
    }
    throw e;
  }
  const log = (msg) => { if (opts.verbose) process.stderr.write(`${PROG}: ${msg}\n`); };
  const t0 = process.hrtime.bigint();
  const ms = (a, b) => Number(b - a) / 1e6;

  const modelJSON = readJSON(opts.model, 'model');
  const spec = readInputSpec(opts.inputs);
  try {
    fs.mkdirSync(opts.out, {recursive: true});
  } catch (e) {
    throw new OracleError(`cannot create output directory '${opts.out}': ${e.message}`);
  }

  let tf;
  try {
    tf = require('@tensorflow/tfjs-core');
    require('@tensorflow/tfjs-backend-cpu');
    tf.converter = require('@tensorflow/tfjs-converter');
  } catch (e) {
    throw new OracleError(`cannot load TensorFlow.js (${e.message.split('\n')[0]}); ` +
                          `install it with scripts/setup-tfjs-oracle.sh`);
  }
  // PROD only silences TF.js's console warnings (e.g. the "install tfjs-node"
  // banner), which would otherwise clutter every test log.
  if (!opts.verbose) tf.env().set('PROD', true);
  if (!(await tf.setBackend('cpu'))) {
    throw new OracleError('could not initialize the TF.js cpu backend');
  }
  await tf.ready();
  const tLoad0 = process.hrtime.bigint();

  let model;
  try {
    model = await tf.converter.loadGraphModel(
        fileSystemHandler(tf, opts.model, modelJSON));
  } catch (e) {
    if (e instanceof OracleError) throw e;
    throw new OracleError(`cannot load model '${opts.model}': ${e.message}`);
  }
  const tLoad1 = process.hrtime.bigint();
  log(`loaded ${opts.model} in ${ms(tLoad0, tLoad1).toFixed(1)} ms`);

  const outputNames = spec.outputs || defaultOutputs(modelJSON, model);
  if (outputNames.length === 0) throw new OracleError('the model has no outputs');
  const feed = {};
  const tensors = [];
  for (const inp of spec.inputs) {
    const t = tf.tensor(inp.values, inp.shape, inp.tfDtype);
    tensors.push(t);
    feed[inp.name] = t;
  }

  const asyncOps = asyncOpsOf(modelJSON);
  let method = opts.async || asyncOps.length > 0 ? 'executeAsync' : 'execute';
  if (asyncOps.length > 0) log(`control-flow/dynamic ops ${asyncOps.join(', ')}: using executeAsync`);
  const tExec0 = process.hrtime.bigint();
  let results;
  try {
    if (method === 'execute') {
      try {
        results = model.execute(feed, outputNames);
      } catch (e) {
        if (!/executeAsync/.test(e.message)) throw e;
        log(`execute() refused the graph (${e.message}); retrying with executeAsync`);
        method = 'executeAsync';
      }
    }
    if (method === 'executeAsync') {
      results = await model.executeAsync(feed, outputNames);
    }
  } catch (e) {
    if (process.env.TFAOT_ORACLE_DEBUG) process.stderr.write(`${e.stack}\n`);
    throw new OracleError(`running '${opts.model}' failed: ${e.message}`);
  }
  if (!Array.isArray(results)) results = [results];
  if (results.length !== outputNames.length) {
    throw new OracleError(`asked for ${outputNames.length} outputs, TF.js ` +
                          `returned ${results.length}`);
  }
  // data() waits for the backend; on cpu it is already computed, but keep the
  // read inside the timed region so that the time is the whole inference.
  const datas = [];
  for (const r of results) datas.push(await r.data());
  const tExec1 = process.hrtime.bigint();
  log(`${method} took ${ms(tExec0, tExec1).toFixed(1)} ms`);

  const used = new Set(['outputs']);
  const described = [];
  results.forEach((r, i) => {
    const name = outputNames[i];
    let base = sanitize(name);
    for (let k = 2; used.has(base); ++k) base = `${sanitize(name)}_${k}`;
    used.add(base);
    const file = `${base}.bin`;
    let fileDtype;
    let bytes;
    switch (r.dtype) {
      case 'float32':
        fileDtype = 'float32';
        bytes = Buffer.from(Float32Array.from(datas[i]).buffer);
        break;
      case 'int32':
        fileDtype = 'int32';
        bytes = Buffer.from(Int32Array.from(datas[i]).buffer);
        break;
      case 'bool':
        fileDtype = 'int32';
        bytes = Buffer.from(Int32Array.from(datas[i]).buffer);
        break;
      default:
        throw new OracleError(`output '${name}' has dtype ${r.dtype}, which ` +
                              `cannot be written as float32 or int32`);
    }
    // TypedArrays are host-endian; every machine tfaot targets here is
    // little-endian, but do not write wrong files silently if one is not.
    if (require('os').endianness() !== 'LE') {
      throw new OracleError('big-endian hosts are not supported');
    }
    const outFile = path.join(opts.out, file);
    try {
      fs.writeFileSync(outFile, bytes);
    } catch (e) {
      throw new OracleError(`cannot write '${outFile}': ${e.message}`);
    }
    described.push({name, dtype: r.dtype, file_dtype: fileDtype,
                     shape: r.shape, file});
  });

  const tEnd = process.hrtime.bigint();
  const summary = {
    model: path.resolve(opts.model),
    tfjs_version: tf.version_core,
    backend: tf.getBackend(),
    method,
    timing_ms: {
      load: +ms(tLoad0, tLoad1).toFixed(3),
      execute: +ms(tExec0, tExec1).toFixed(3),
      total: +ms(t0, tEnd).toFixed(3),
    },
    outputs: described,
  };
  const jsonFile = path.join(opts.out, 'outputs.json');
  try {
    fs.writeFileSync(jsonFile, JSON.stringify(summary, null, 2) + '\n');
  } catch (e) {
    throw new OracleError(`cannot write '${jsonFile}': ${e.message}`);
  }
  tf.dispose(results);
  tf.dispose(tensors);
  model.dispose();
  log(`wrote ${described.length} output(s) to ${opts.out}`);
}

main().then(() => process.exit(0), (e) => {
  const msg = e instanceof OracleError ? e.message : (e && e.stack) || String(e);
  process.stderr.write(`${PROG}: error: ${msg}\n`);
  process.exit(1);
});
