//===- compare_json.cpp - The JSON the oracle reads and writes ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// A minimal JSON reader, for the oracle's outputs.json (objects, arrays,
// strings with \u escapes, numbers, literals), and the quoting of the
// strings written into in.json.
//
//===----------------------------------------------------------------------===//

#include "compare_internal.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tfjs_compare {

namespace {

class JsonParser {
public:
  explicit JsonParser(const std::string &text) : s_(text) {}

  bool parse(Json &out, std::string &error) {
    if (!value(out, 0) || (ws(), pos_ != s_.size())) {
      error = error_.empty() ? "trailing characters" : error_;
      error += " at offset " + std::to_string(pos_);
      return false;
    }
    return true;
  }

private:
  void ws() {
    while (pos_ < s_.size() && std::strchr(" \t\r\n", s_[pos_])) ++pos_;
  }
  bool fail(const char *msg) {
    if (error_.empty()) error_ = msg;
    return false;
  }
  bool literal(const char *word) {
    size_t n = std::strlen(word);
    if (s_.compare(pos_, n, word) != 0) return fail("bad literal");
    pos_ += n;
    return true;
  }
  bool string(std::string &out) {
    if (s_[pos_] != '"') return fail("expected a string");
    ++pos_;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) break;
      char e = s_[pos_++];
      switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        std::string hex = s_.substr(pos_, 4);
        char *end = nullptr;
        unsigned cp = static_cast<unsigned>(std::strtoul(hex.c_str(), &end, 16));
        if (hex.size() != 4 || end != hex.c_str() + 4)
          return fail("bad \\u escape");
        pos_ += 4;
        // Node names are ASCII; keep anything else as UTF-8 (BMP only).
        if (cp < 0x80) {
          out += static_cast<char>(cp);
        } else if (cp < 0x800) {
          out += static_cast<char>(0xC0 | (cp >> 6));
          out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
          out += static_cast<char>(0xE0 | (cp >> 12));
          out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
          out += static_cast<char>(0x80 | (cp & 0x3F));
        }
        break;
      }
      default: out += e; break;  // \" \\ \/
      }
    }
    if (pos_ >= s_.size()) return fail("unterminated string");
    ++pos_;
    return true;
  }
  bool value(Json &out, int depth) {
    if (depth > 64) return fail("nested too deeply");
    ws();
    if (pos_ >= s_.size()) return fail("unexpected end");
    char c = s_[pos_];
    if (c == '{') {
      out.kind = Json::kObject;
      ++pos_;
      ws();
      if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
      while (true) {
        ws();
        std::string key;
        if (pos_ >= s_.size() || !string(key)) return fail("expected a key");
        ws();
        if (pos_ >= s_.size() || s_[pos_] != ':') return fail("expected ':'");
        ++pos_;
        out.obj.emplace_back(std::move(key), Json());
        if (!value(out.obj.back().second, depth + 1)) return false;
        ws();
        if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
        if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      out.kind = Json::kArray;
      ++pos_;
      ws();
      if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
      while (true) {
        out.arr.emplace_back();
        if (!value(out.arr.back(), depth + 1)) return false;
        ws();
        if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
        if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      out.kind = Json::kString;
      return string(out.str);
    }
    if (c == 't') return out.kind = Json::kBool, out.b = true, literal("true");
    if (c == 'f') return out.kind = Json::kBool, out.b = false, literal("false");
    if (c == 'n') return out.kind = Json::kNull, literal("null");
    const char *begin = s_.c_str() + pos_;
    char *end = nullptr;
    out.num = std::strtod(begin, &end);
    if (end == begin) return fail("unexpected character");
    out.kind = Json::kNumber;
    pos_ += end - begin;
    return true;
  }

  const std::string &s_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace

bool parseJson(const std::string &text, Json &out, std::string &error) {
  return JsonParser(text).parse(out, error);
}

std::string jsonQuote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace tfjs_compare
