#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// test/e2e/tfjs/models/make_tiny_mlp.js - writes tiny_mlp.json + tiny_mlp.bin.
//
// A hand-made TensorFlow.js graph model, laid out as tensorflowjs_converter
// writes one, small enough to check by hand and made only of ops tfaot
// compiles today:
//
//   x: Placeholder float32[-1,8]
//   dense/MatMul   = MatMul(x, dense/kernel)        dense/kernel: Const [8,4]
//   dense/BiasAdd  = BiasAdd(dense/MatMul, dense/bias)  dense/bias: Const [4]
//   dense/Relu     = Relu(dense/BiasAdd)
//   softmax/Softmax = Softmax(dense/Relu)
//   Identity       = Identity(softmax/Softmax)      (signature output "probs")
//
// It also writes tiny_mlp.pbtxt, the same graph as a frozen GraphDef in text
// form (weights inline as float_val), so that the harness can check tfaot's
// GraphDef path against TF.js running the .json on the same network.
//
// The weights are a fixed formula (no randomness), so rerunning the script
// rewrites byte-identical files:
//
//   node make_tiny_mlp.js [OUTDIR]     write OUTDIR/tiny_mlp.{json,bin,pbtxt}
//                                      (default: this script's directory)
//   node make_tiny_mlp.js --check      exit 1 if the committed files differ
//                                      from what the script would write
//
// No npm packages are needed.
'use strict';

const fs = require('fs');
const path = require('path');

const IN = 8;
const OUT = 4;

function dim(...sizes) {
  return {dim: sizes.map(s => ({size: String(s)}))};
}

// kernel[i][j] in [-7/8, 1], mixed signs so that on inputs in [0,1) Relu
// zeroes some units but not all.
function kernel() {
  const w = new Float32Array(IN * OUT);
  for (let i = 0; i < IN; ++i) {
    for (let j = 0; j < OUT; ++j) {
      w[i * OUT + j] = (((i * 7 + j * 5 + 3) % 16) - 7) / 8;
    }
  }
  return w;
}

function bias() {
  const b = new Float32Array(OUT);
  for (let j = 0; j < OUT; ++j) b[j] = 0.25 * (j - 1.5);
  return b;
}

function model() {
  const f32 = {type: 'DT_FLOAT'};
  const T = {T: f32};
  const node = [
    {name: 'dense/kernel', op: 'Const',
     attr: {value: {tensor: {dtype: 'DT_FLOAT', tensorShape: dim(IN, OUT)}}, dtype: f32}},
    {name: 'dense/bias', op: 'Const',
     attr: {value: {tensor: {dtype: 'DT_FLOAT', tensorShape: dim(OUT)}}, dtype: f32}},
    {name: 'x', op: 'Placeholder',
     attr: {shape: {shape: dim(-1, IN)}, dtype: f32}},
    {name: 'dense/MatMul', op: 'MatMul', input: ['x', 'dense/kernel'],
     attr: {transpose_a: {b: false}, transpose_b: {b: false}, T: f32}},
    {name: 'dense/BiasAdd', op: 'BiasAdd', input: ['dense/MatMul', 'dense/bias'],
     attr: {data_format: {s: Buffer.from('NHWC').toString('base64')}, T: f32}},
    {name: 'dense/Relu', op: 'Relu', input: ['dense/BiasAdd'], attr: T},
    {name: 'softmax/Softmax', op: 'Softmax', input: ['dense/Relu'], attr: T},
    {name: 'Identity', op: 'Identity', input: ['softmax/Softmax'], attr: T},
  ];
  return {
    format: 'graph-model',
    generatedBy: 'test/e2e/tfjs/models/make_tiny_mlp.js',
    convertedBy: 'hand-written for tfaot (make_tiny_mlp.js)',
    signature: {
      inputs: {x: {name: 'x:0', dtype: 'DT_FLOAT', tensorShape: dim(-1, IN)}},
      outputs: {probs: {name: 'Identity:0', dtype: 'DT_FLOAT', tensorShape: dim(-1, OUT)}},
    },
    modelTopology: {node, library: {}, versions: {producer: 808}},
    weightsManifest: [{
      paths: ['tiny_mlp.bin'],
      weights: [
        {name: 'dense/kernel', shape: [IN, OUT], dtype: 'float32'},
        {name: 'dense/bias', shape: [OUT], dtype: 'float32'},
      ],
    }],
  };
}

// The same graph as a GraphDef in protobuf text format. Every weight is a
// multiple of 1/8 (kernel) or 1/4 (bias), so its decimal form is exact.
function pbtxt() {
  const m = model();
  const w = {'dense/kernel': kernel(), 'dense/bias': bias()};
  const lines = [
    '# tiny_mlp as a frozen GraphDef: the graph of tiny_mlp.json with the',
    '# weights of tiny_mlp.bin inline. Written by make_tiny_mlp.js; do not edit.',
  ];
  const shapeText = (s) => s.dim.map(d => `dim { size: ${d.size} }`).join(' ');
  for (const n of m.modelTopology.node) {
    lines.push('node {', `  name: "${n.name}"`, `  op: "${n.op}"`);
    for (const i of n.input || []) lines.push(`  input: "${i}"`);
    for (const [key, v] of Object.entries(n.attr || {})) {
      let val;
      if (v.type) {
        val = `type: ${v.type}`;
      } else if (v.b !== undefined) {
        val = `b: ${v.b}`;
      } else if (v.s !== undefined) {
        val = `s: "${Buffer.from(v.s, 'base64').toString()}"`;
      } else if (v.shape) {
        val = `shape { ${shapeText(v.shape)} }`;
      } else if (v.tensor) {
        const vals = Array.from(w[n.name]).map(x => `float_val: ${x}`).join(' ');
        val = `tensor { dtype: ${v.tensor.dtype} tensor_shape { ` +
              `${shapeText(v.tensor.tensorShape)} } ${vals} }`;
      } else {
        throw new Error(`attr ${key} of ${n.name}: no pbtxt form`);
      }
      lines.push(`  attr { key: "${key}" value { ${val} } }`);
    }
    lines.push('}');
  }
  lines.push(`versions { producer: ${m.modelTopology.versions.producer} }`, '');
  return lines.join('\n');
}

function files() {
  const json = JSON.stringify(model(), null, 2) + '\n';
  const w = kernel();
  const b = bias();
  const bin = Buffer.alloc(4 * (w.length + b.length));
  let off = 0;
  for (const v of [...w, ...b]) off = bin.writeFloatLE(v, off);  // little-endian
  return {
    'tiny_mlp.json': Buffer.from(json),
    'tiny_mlp.bin': bin,
    'tiny_mlp.pbtxt': Buffer.from(pbtxt()),
  };
}

function main(argv) {
  const check = argv.includes('--check');
  const rest = argv.filter(a => a !== '--check');
  if (rest.length > 1 || rest.some(a => a.startsWith('-'))) {
    process.stderr.write('usage: node make_tiny_mlp.js [OUTDIR] | --check\n');
    return 2;
  }
  const dir = rest[0] || __dirname;
  let stale = 0;
  for (const [name, data] of Object.entries(files())) {
    const file = path.join(dir, name);
    if (check) {
      let old = null;
      try { old = fs.readFileSync(file); } catch (e) { /* missing */ }
      if (old === null || !old.equals(data)) {
        process.stderr.write(`make_tiny_mlp: ${file} is missing or out of date; ` +
                             `rerun node ${path.relative(process.cwd(), __filename)}\n`);
        stale = 1;
      }
    } else {
      fs.writeFileSync(file, data);
    }
  }
  return stale;
}

process.exit(main(process.argv.slice(2)));
