// SPDX-License-Identifier: Apache-2.0
#include "core/waveform_files.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <regex>
#include <vector>

#include <gtkwave/fstapi.h>

#include "core/errors.h"

namespace icn {

namespace fs = std::filesystem;

WaveFormat WaveFormatOf(const std::string& option, const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".fst") return WaveFormat::kFst;
  if (ext == ".vcd") return WaveFormat::kVcd;
  throw ScenarioError(
      option + ": '" + path +
      "' names no waveform format by its extension; allowed: FILE.fst (FST, GTKWave's compact "
      "format) or FILE.vcd (VCD, converted from the FST)");
}

namespace {

// A file written through a temporary one and a rename: a failed write leaves neither.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path) : path_(std::move(path)), temporary_(path_ + ".tmp") {
    file_ = std::fopen(temporary_.c_str(), "w");
    if (!file_) Fail(errno);
  }
  ~AtomicFile() {
    if (file_) std::fclose(file_);
    if (!done_) std::remove(temporary_.c_str());
  }
  FILE* get() { return file_; }
  void Commit() {
    const bool failed = std::ferror(file_) != 0;
    const int error = errno;
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (failed || closed != 0) Fail(failed ? error : errno);
    if (std::rename(temporary_.c_str(), path_.c_str()) != 0) Fail(errno);
    done_ = true;
  }

 private:
  [[noreturn]] void Fail(int error) {
    throw WriteError("cannot write " + path_ + ": " + std::strerror(error ? error : EIO));
  }
  std::string path_, temporary_;
  FILE* file_ = nullptr;
  bool done_ = false;
};

struct FstReader {
  explicit FstReader(const std::string& path) : ctx(fstReaderOpen(path.c_str())) {
    if (!ctx) throw WriteError("cannot read back the waveform " + path);
  }
  ~FstReader() { fstReaderClose(ctx); }
  void* ctx;
};

// One bit's activity: time at 0, 1 and unknown, toggles between 0 and 1.
struct BitActivity {
  char value = 'x';
  uint64_t since = 0;
  uint64_t t0 = 0, t1 = 0, tx = 0, tc = 0;
  void Hold(uint64_t until) {
    const uint64_t held = until > since ? until - since : 0;
    (value == '0' ? t0 : value == '1' ? t1 : tx) += held;
    since = std::max(since, until);
  }
  void Set(char next, uint64_t time) {
    if (next == value) return;
    Hold(time);
    if ((value == '0' && next == '1') || (value == '1' && next == '0')) ++tc;
    value = next;
  }
};

struct Net {
  std::string name;  // as declared, without its range
  int msb = 0, lsb = 0;
  bool ranged = false;
  fstHandle handle = 0;
};

struct Scope {
  std::string name;
  std::vector<Net> nets;
  std::vector<std::unique_ptr<Scope>> children;
};

// SAIF names escape the characters that are not part of an identifier.
std::string SaifName(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') out += '\\';
    out += c;
  }
  return out;
}

Net ParseNet(const char* declared, fstHandle handle) {
  static const std::regex ranged(R"(^(.*?)\s*\[(-?\d+):(-?\d+)\]$)");
  Net net;
  net.handle = handle;
  std::cmatch m;
  if (std::regex_match(declared, m, ranged)) {
    net.name = m[1];
    net.msb = std::stoi(m[2]);
    net.lsb = std::stoi(m[3]);
    net.ranged = true;
  } else {
    net.name = declared;
  }
  return net;
}

struct Activity {
  std::vector<std::vector<BitActivity>> bits;  // by handle; value string order: MSB first
  uint64_t from = 0, to = 0;
};

void OnValue(void* user, uint64_t time, fstHandle handle, const unsigned char* value) {
  auto* activity = static_cast<Activity*>(user);
  if (handle >= activity->bits.size()) return;  // (a variable that is not bits: left out)
  const uint64_t at = std::clamp(time, activity->from, activity->to);
  std::vector<BitActivity>& bits = activity->bits[handle];
  for (size_t i = 0; i < bits.size() && value[i]; ++i) {
    const char v = value[i] == '0' || value[i] == '1' ? static_cast<char>(value[i]) : 'x';
    bits[i].Set(v, at);
  }
}

// Bits only: a real or a string has no toggles to count.
bool IsBits(const fstHier& h) {
  const unsigned char t = h.u.var.typ;
  return h.u.var.length > 0 && t != FST_VT_VCD_REAL && t != FST_VT_VCD_REAL_PARAMETER &&
         t != FST_VT_VCD_REALTIME && t != FST_VT_SV_SHORTREAL && t != FST_VT_GEN_STRING;
}

void WriteScope(FILE* out, const Scope& scope, const Activity& activity, int depth) {
  const std::string pad(static_cast<size_t>(2 * depth), ' ');
  std::fprintf(out, "%s(INSTANCE %s\n", pad.c_str(), SaifName(scope.name).c_str());
  if (!scope.nets.empty()) {
    std::fprintf(out, "%s  (NET\n", pad.c_str());
    for (const Net& net : scope.nets) {
      const std::vector<BitActivity>& bits = activity.bits[net.handle];
      for (size_t i = 0; i < bits.size(); ++i) {
        const int index = net.msb >= net.lsb ? net.msb - static_cast<int>(i) : net.msb + static_cast<int>(i);
        const std::string name =
            net.ranged ? SaifName(net.name) + "\\[" + std::to_string(index) + "\\]" : SaifName(net.name);
        const BitActivity& b = bits[i];
        std::fprintf(out, "%s    (%s (T0 %llu) (T1 %llu) (TX %llu) (TC %llu) (IG 0))\n", pad.c_str(),
                     name.c_str(), static_cast<unsigned long long>(b.t0),
                     static_cast<unsigned long long>(b.t1), static_cast<unsigned long long>(b.tx),
                     static_cast<unsigned long long>(b.tc));
      }
    }
    std::fprintf(out, "%s  )\n", pad.c_str());
  }
  for (const auto& child : scope.children) WriteScope(out, *child, activity, depth + 1);
  std::fprintf(out, "%s)\n", pad.c_str());
}

}  // namespace

void WriteVcd(const std::string& fst, const std::string& vcd) {
  FstReader reader(fst);
  AtomicFile out(vcd);
  // What GTKWave's fst2vcd does: the header from the hierarchy, then every value change.
  const bool hierarchy = fstReaderProcessHier(reader.ctx, out.get()) != 0;
  fstReaderSetFacProcessMaskAll(reader.ctx);
  if (!hierarchy || !fstReaderIterBlocks(reader.ctx, nullptr, nullptr, out.get()))
    throw WriteError("cannot convert " + fst + " to " + vcd + ": the waveform does not read back whole");
  out.Commit();
}

void WriteSaif(const std::string& fst, const std::string& saif, const SaifSpan& span,
               const std::string& version) {
  FstReader reader(fst);
  if (fstReaderGetTimescale(reader.ctx) != -12)
    throw WriteError("cannot read " + fst + ": its time unit is not 1 ps");
  Activity activity;
  activity.from = span.from_ps;
  activity.to = span.to_ps;
  Scope root;
  std::vector<Scope*> open = {&root};
  fstReaderIterateHierRewind(reader.ctx);
  while (const fstHier* h = fstReaderIterateHier(reader.ctx)) {
    if (h->htyp == FST_HT_SCOPE) {
      open.back()->children.push_back(std::make_unique<Scope>());
      open.back()->children.back()->name = h->u.scope.name;
      open.push_back(open.back()->children.back().get());
    } else if (h->htyp == FST_HT_UPSCOPE && open.size() > 1) {
      open.pop_back();
    } else if (h->htyp == FST_HT_VAR && IsBits(*h)) {
      Net net = ParseNet(h->u.var.name, h->u.var.handle);
      if (activity.bits.size() <= net.handle) activity.bits.resize(net.handle + 1);
      auto& bits = activity.bits[net.handle];
      bits.resize(h->u.var.length);
      for (BitActivity& b : bits) b.since = span.from_ps;
      open.back()->nets.push_back(net);
    }
  }
  fstReaderSetFacProcessMaskAll(reader.ctx);
  if (!fstReaderIterBlocks(reader.ctx, OnValue, &activity, nullptr))
    throw WriteError("cannot read back " + fst + " whole");
  for (auto& bits : activity.bits) {
    for (BitActivity& b : bits) b.Hold(span.to_ps);
  }
  AtomicFile out(saif);
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::fprintf(out.get(),
               "(SAIFILE\n(SAIFVERSION \"2.0\")\n(DIRECTION \"backward\")\n(DESIGN )\n(DATE \"%s\")\n"
               "(VENDOR \"icnsim\")\n(PROGRAM_NAME \"icnsim\")\n(VERSION \"%s\")\n(DIVIDER / )\n"
               "(TIMESCALE 1 ps)\n(DURATION %llu)\n",
               date, version.c_str(), static_cast<unsigned long long>(span.to_ps - span.from_ps));
  for (const auto& top : root.children) WriteScope(out.get(), *top, activity, 0);
  std::fprintf(out.get(), ")\n");
  out.Commit();
}

}  // namespace icn
