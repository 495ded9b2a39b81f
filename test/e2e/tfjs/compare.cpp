//===- compare.cpp - tfaot vs the TF.js oracle: the steps -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// compareMain() (compare.h says what it does), the command line's options,
// the element-wise comparison and the reruns on other thread counts.
//
//===----------------------------------------------------------------------===//

#include "compare_internal.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tfjs_compare {

namespace {

const Config *gConfig = nullptr;

}  // namespace

const Config &config() { return *gConfig; }

[[noreturn]] void fatal(const std::string &msg) {
  std::cerr << "tfjs-compare " << config().name << ": error: " << msg << "\n";
  std::exit(2);
}

namespace {

//===--- comparison -----------------------------------------------------------===//

struct Stats {
  int64_t mismatches = 0;
  double max_abs = 0, max_rel = 0;
  int64_t max_abs_at = -1, max_rel_at = -1;
  double worst_ratio = -1;  // |err| / (atol + rtol*|want|)
  int64_t worst_at = -1;
  double worst_got = 0, worst_want = 0;
};

// numpy.allclose's test, with NaN == NaN and equal infinities matching.
bool close(double got, double want, double rtol, double atol, double &ratio) {
  if (std::isnan(got) || std::isnan(want)) {
    ratio = std::isnan(got) && std::isnan(want) ? 0 : INFINITY;
    return ratio == 0;
  }
  if (std::isinf(got) || std::isinf(want)) {
    ratio = got == want ? 0 : INFINITY;
    return ratio == 0;
  }
  double err = std::fabs(got - want);
  double tol = atol + rtol * std::fabs(want);
  ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
  return err <= tol;
}

Options parseOptions(int argc, char **argv) {
  Options o;
  o.seed = config().seed;
  o.rtol = config().rtol;
  o.atol = config().atol;
  o.work = config().work_dir;
  o.model = config().model;
  o.sensitivity = config().sensitivity;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) fatal(a + " needs a value");
      return argv[++i];
    };
    auto number = [&]() {
      std::string v = value();
      char *end = nullptr;
      double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(d >= 0))
        fatal(a + ": '" + v + "' is not a non-negative number");
      return d;
    };
    if (a == "--seed") o.seed = static_cast<uint64_t>(number());
    else if (a == "--rtol") o.rtol = number();
    else if (a == "--atol") o.atol = number();
    else if (a == "--work") o.work = value();
    else if (a == "--model") o.model = value();
    else if (a == "--verbose" || a == "-v") o.verbose = true;
    else if (a == "--sensitivity") o.sensitivity = true;
    else if (a == "--help" || a == "-h") {
      std::cout << "usage: " << argv[0]
                << " [--seed N] [--rtol R] [--atol A] [--work DIR]"
                   " [--model MODEL.json] [--sensitivity] [--verbose]\n";
      std::exit(0);
    } else {
      fatal("unknown argument '" + a + "' (try --help)");
    }
  }
  return o;
}

//===--- reruns ---------------------------------------------------------------===//

/// The bytes of every result, to compare a rerun with.
std::vector<std::vector<char>> resultBytes(const tfaot::CompiledFunction &model,
                                           const tfaot::FunctionInfo &info) {
  std::vector<std::vector<char>> bytes;
  for (int r = 0; r < info.num_results; ++r) {
    const char *data = static_cast<const char *>(model.result_data(r));
    bytes.emplace_back(data, data + info.results[r].size_bytes);
  }
  return bytes;
}

/// Clears the results (so that one the rerun does not write cannot pass),
/// runs `model` again and returns how many results differ from `before`,
/// printing "FAIL result<r>" + `differs` for each; `runName` names the run
/// in the error if Run() fails. `ms` is the rerun's time.
int rerunAndCompare(const ModelHooks &hooks, tfaot::CompiledFunction &model,
                    const std::vector<std::vector<char>> &before,
                    const std::string &runName, const std::string &differs,
                    double &ms) {
  const tfaot::FunctionInfo &info = hooks.info;
  for (int r = 0; r < info.num_results; ++r)
    std::memset(model.result_data(r), 0, info.results[r].size_bytes);
  auto t0 = std::chrono::steady_clock::now();
  if (!hooks.run(model)) fatal(runName + " failed: " + model.error_msg());
  ms = msSince(t0);
  int differing = 0;
  for (int r = 0; r < info.num_results; ++r)
    if (std::memcmp(model.result_data(r), before[r].data(), before[r].size()) != 0) {
      std::cout << "  FAIL result" << r << differs << "\n";
      ++differing;
    }
  return differing;
}

/// Runs `model` again; returns how many results differ from the first
/// run's, reporting each.
int checkSecondRun(const ModelHooks &hooks, tfaot::CompiledFunction &model) {
  double ms = 0;
  int differing = rerunAndCompare(hooks, model, resultBytes(model, hooks.info),
                                  "the second Run()",
                                  " of the second Run() differs from the first",
                                  ms);
  if (!differing)
    std::cout << "  ok   second Run(): results bit-identical to the first, "
              << fmtMs(ms) << "\n";
  return differing;
}

/// Reruns `model` on 2 and 3 threads; returns how many results differed
/// from the single-threaded run's, reporting each.
int checkThreadCounts(const ModelHooks &hooks, tfaot::CompiledFunction &model) {
  const std::vector<std::vector<char>> single = resultBytes(model, hooks.info);
  tfaot::ThreadPool shared(3);
  int differing = 0;
  for (int threads : {2, 3}) {
    if (threads == 2) {
      if (!model.set_num_threads(2)) fatal(model.error_msg());
    } else {
      model.set_thread_pool(&shared);
    }
    std::string on = " on " + std::to_string(threads) + " threads";
    double ms = 0;
    int differ = rerunAndCompare(hooks, model, single, "Run()" + on,
                                 on + " differs from the single-threaded run", ms);
    if (!differ)
      std::cout << "  ok   " << threads << " threads ("
                << (threads == 2 ? "set_num_threads" : "a shared pool")
                << "): results bit-identical to 1 thread, Run() " << fmtMs(ms)
                << "\n";
    differing += differ;
  }
  model.set_thread_pool(nullptr);
  return differing;
}

}  // namespace

int compareMain(int argc, char **argv, const Config &cfg,
                const ModelHooks &hooks) {
  gConfig = &cfg;
  const bool cuda = cfg.cuda;
  Options opt = parseOptions(argc, argv);
  const tfaot::FunctionInfo &info = hooks.info;
  std::cout << "tfaot" << (cuda ? " --target=cuda" : "")
            << " vs TF.js oracle: " << cfg.name << " ("
            << info.class_name << ")\n"
            << "  model " << opt.model << "\n"
            << "  seed " << opt.seed << ", rtol " << opt.rtol << ", atol "
            << opt.atol << (opt.sensitivity ? ", widened to 2x TF.js's one-ulp sensitivity" : "")
            << "\n";

  // Fresh scratch directory: a stale oracle output must never be compared.
  // (A CUDA build reads the CPU test's instead, after checking that its
  // inputs are the ones generated here.)
  fs::path work = opt.work;
  fs::path in_dir = work / "inputs", out_dir = work / "oracle",
           ulp_dir = work / "oracle_ulp";
  std::error_code ec;
  if (!cuda) {
    for (const fs::path &d : {in_dir, out_dir, ulp_dir}) fs::remove_all(d, ec);
    fs::create_directories(in_dir, ec);
    if (ec) fatal("cannot create " + in_dir.string() + ": " + ec.message());
  }

  // 1. Deterministic arguments, in the instance's own buffers.
  std::unique_ptr<tfaot::CompiledFunction> model = hooks.create();
  Rng rng{opt.seed};
  std::vector<fs::path> files;
  for (int i = 0; i < info.num_args; ++i) {
    const BufferInfo &b = info.args[i];
    void *data = model->arg_data(i);
    if (!data) fatal("argument " + std::to_string(i) + " has no buffer");
    fillArgument(data, b, rng);
    files.push_back(in_dir / ("arg" + std::to_string(i) + ".bin"));
    if (cuda)
      checkSavedInput(files.back(), data, b.size_bytes);
    else if (!writeFile(files.back(), data, b.size_bytes))
      fatal("cannot write " + files.back().string());
    Range r = inputRange(b);
    std::cout << "  arg" << i << "    " << describe(b);
    if (r.lo == r.hi)
      std::cout << " = " << r.lo << "\n";
    else
      std::cout << " uniform [" << r.lo << "," << r.hi << ")\n";
  }
  fs::path in_file = work / "in.json";
  std::string in_text = inputsJson(info, files);
  if (!cuda && !writeFile(in_file, in_text.data(), in_text.size()))
    fatal("cannot write " + in_file.string());

  // 2. The oracle (twice with --sensitivity).
  OracleRun oracle = cuda ? loadOracle(info, out_dir)
                           : runOracle(opt, info, in_file, out_dir);
  if (!cuda) {
    auto str = [&](const char *k) {
      const Json *v = oracle.json.get(k);
      return v && v->kind == Json::kString ? v->str : std::string("?");
    };
    auto num = [&](const char *k) {
      const Json *t = oracle.json.get("timing_ms");
      const Json *v = t ? t->get(k) : nullptr;
      return v && v->kind == Json::kNumber ? fmtMs(v->num) : std::string("?");
    };
    std::cout << "  oracle  TF.js " << str("tfjs_version") << " ("
              << str("backend") << ", " << str("method") << "): inference "
              << num("execute") << ", model load " << num("load") << ", "
              << fmtMs(oracle.wall_ms) << " wall with node's start-up\n";
  }
  std::optional<OracleRun> perturbed;
  if (opt.sensitivity && cuda) {
    perturbed = loadOracle(info, ulp_dir);
  } else if (opt.sensitivity) {
    std::vector<fs::path> ulp_files =
        writePerturbedInputs(info, *model, in_dir, opt.seed);
    fs::path ulp_in = work / "in_ulp.json";
    std::string ulp_text = inputsJson(info, ulp_files);
    if (!writeFile(ulp_in, ulp_text.data(), ulp_text.size()))
      fatal("cannot write " + ulp_in.string());
    perturbed = runOracle(opt, info, ulp_in, ulp_dir);
  }

  // 3. The compiled function.
  auto t0 = std::chrono::steady_clock::now();
  if (!hooks.run(*model)) {
    std::string why = model->error_msg();
    if (cuda && (why.rfind("no CUDA driver", 0) == 0 ||
                  why.rfind("no CUDA device", 0) == 0)) {
      std::cout << "SKIP: needs a GPU: " << why << "\n";
      return 77;
    }
    fatal("Run() failed: " + why);
  }
  std::cout << "  tfaot   Run(): " << fmtMs(msSince(t0))
            << (cuda ? " (the first: context, weights and kernels set up)" : "")
            << "\n";

  // 4. Compare.
  int failed = 0;
  for (int r = 0; r < info.num_results; ++r) {
    const BufferInfo &b = info.results[r];
    std::string label = "result" + std::to_string(r) + " " + describe(b);
    std::optional<std::vector<double>> want = oracleResult(oracle, r, b, label);
    if (!want) {
      ++failed;
      continue;
    }
    double atol = opt.atol;
    if (perturbed) {
      std::optional<std::vector<double>> moved =
          oracleResult(*perturbed, r, b, label + " (one ulp off)");
      if (!moved) fatal(std::string("the oracle's two runs disagree on result ") + b.name);
      double sensitivity = 0;
      for (int64_t i = 0; i < b.num_elements; ++i) {
        double d = std::fabs((*moved)[i] - (*want)[i]);
        if (!std::isnan(d)) sensitivity = std::max(sensitivity, d);
      }
      if (2 * sensitivity > atol) {
        atol = 2 * sensitivity;
        std::cout << "  note " << label << ": atol " << fmt(atol)
                  << ": TF.js's own output moves by up to " << fmt(sensitivity)
                  << " when the inputs move one ulp\n";
      }
    }

    Stats s;
    const void *got_data = model->result_data(r);
    std::vector<int64_t> dims = dimsOf(b);
    std::vector<std::string> shown;  // first mismatches, for --verbose
    for (int64_t i = 0; i < b.num_elements; ++i) {
      double got = elementAt(got_data, b.dtype, i);
      double want_i = (*want)[i];
      double ratio;
      bool ok = close(got, want_i, opt.rtol, atol, ratio);
      double abs_err = std::fabs(got - want_i);
      if (!std::isnan(abs_err)) {
        if (abs_err > s.max_abs || s.max_abs_at < 0) s.max_abs = abs_err, s.max_abs_at = i;
        if (want_i != 0) {
          double rel = abs_err / std::fabs(want_i);
          if (rel > s.max_rel || s.max_rel_at < 0) s.max_rel = rel, s.max_rel_at = i;
        }
      }
      if (ratio > s.worst_ratio) {
        s.worst_ratio = ratio;
        s.worst_at = i;
        s.worst_got = got;
        s.worst_want = want_i;
      }
      if (!ok) {
        ++s.mismatches;
        if (opt.verbose && shown.size() < 20)
          shown.push_back(indexString(i, dims) + ": tfaot " + fmt(got) +
                          ", oracle " + fmt(want_i));
      }
    }
    std::cout << "  " << (s.mismatches ? "FAIL " : "ok   ") << label
              << ": max abs err " << fmt(s.max_abs);
    if (s.max_abs_at >= 0) std::cout << " at " << indexString(s.max_abs_at, dims);
    std::cout << ", max rel err " << fmt(s.max_rel);
    if (s.max_rel_at >= 0) std::cout << " at " << indexString(s.max_rel_at, dims);
    std::cout << "\n";
    if (s.mismatches) {
      std::cout << "         " << s.mismatches << " of " << b.num_elements
                << " elements differ; worst " << indexString(s.worst_at, dims)
                << ": tfaot " << fmt(s.worst_got) << ", oracle "
                << fmt(s.worst_want) << " (|err| "
                << fmt(std::fabs(s.worst_got - s.worst_want)) << " > atol + rtol*|oracle| = "
                << fmt(atol + opt.rtol * std::fabs(s.worst_want)) << ")\n";
      for (const std::string &line : shown) std::cout << "         " << line << "\n";
      ++failed;
    }
  }
  // 5. Threads: the same arguments on the instance's own pool of 2 threads,
  // then on a shared pool of 3, must give the single-threaded results bit
  // for bit (each parallel loop's iterations compute what they computed in
  // one thread, whatever thread runs them).
  // On the GPU: a second Run(), with the weights and kernels already on the
  // device, must give the first one's results bit for bit.
  failed += cuda ? checkSecondRun(hooks, *model) : checkThreadCounts(hooks, *model);
  if (failed) {
    std::cout << "FAIL: " << failed << " of " << info.num_results
              << " result(s) differ from TF.js or across "
              << (cuda ? "runs" : "thread counts") << " (inputs "
                 "and oracle outputs in "
              << work.string() << ")\n";
    return 1;
  }
  std::cout << "PASS: " << info.num_results << " result(s) match TF.js\n";
  return 0;
}

}  // namespace tfjs_compare
